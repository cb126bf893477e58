// Calls are inlined before the core stages: a private helper written for
// any shape (dynamic dimensions, as MLIR's conv tests write theirs) takes
// its caller's static shapes; a helper called twice is inlined twice and
// then gone. Refused before ("cannot create out param for dynamically
// shaped result": MLIR's Linalg/CPU test-conv-2d-call.mlir).
// RUN: strata-run %s --check | FileCheck %s
// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=IR

// CHECK: model: check result #0 (16x8xf32): relative error {{.*}} PASS
// IR-NOT: call @
// IR-NOT: func.func private @scale
func.func private @scale(%x: tensor<?x?xf32>, %s: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %s : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @model(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %two = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %ad = tensor.cast %a : tensor<16x32xf32> to tensor<?x?xf32>
  %as = call @scale(%ad, %two) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %a2 = tensor.cast %as : tensor<?x?xf32> to tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a2, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  %cd = tensor.cast %c : tensor<16x8xf32> to tensor<?x?xf32>
  %cs = call @scale(%cd, %half) : (tensor<?x?xf32>, f32) -> tensor<?x?xf32>
  %r = tensor.cast %cs : tensor<?x?xf32> to tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
