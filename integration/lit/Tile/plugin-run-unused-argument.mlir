// A program declares only the arguments it reads; the runtime binds each
// tensor "argN" to the launch's buffer N, so a function with an unused
// input (first, or between the used ones) runs (it was refused at launch:
// "has 2 input and 1 output tensors; the launch gives 3 and 1").
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// CHECK: unused_first: check result #0 (64x64xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
// CHECK: unused_between: check result #0 (40x70xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
func.func @unused_first(%unused: tensor<16x16xf32>, %a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

func.func @unused_between(%x: tensor<40x70xf32>, %unused: tensor<3xf32>, %y: tensor<40x70xf32>) -> tensor<40x70xf32> {
  %e = tensor.empty() : tensor<40x70xf32>
  %s = linalg.sub ins(%x, %y : tensor<40x70xf32>, tensor<40x70xf32>) outs(%e : tensor<40x70xf32>) -> tensor<40x70xf32>
  return %s : tensor<40x70xf32>
}
