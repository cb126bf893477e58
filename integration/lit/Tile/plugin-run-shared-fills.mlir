// Three products accumulating into one zero fill (CSE merged the three):
// bufferization fills one buffer and copies it for the others, so two
// products accumulated into a buffer that their program would read from
// DRAM ("accumulates into a buffer that its program reads from DRAM").
// A copy of a filled buffer is a fill of its own; each product then
// starts from its fill, and the fills no program reads are gone.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=mlir -o - | FileCheck %s --check-prefix=MAPPED
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// MAPPED: memref.copy
// CHECK: chain: check result #0 (64x64xf32): {{.*}} PASS
// CHECK-NOT: FAIL
func.func @chain(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%m1, %c : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m3 = linalg.matmul ins(%m2, %c : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m3 : tensor<64x64xf32>
}
