// Elementwise ops over other than two dimensions, every operand read whole,
// run as the elementwise program on the matrix [elements / last dimension,
// last dimension]: a vector is one row (8 elements: one padded tile), a
// 3-D tensor its 2x50 = 100 rows of 70 (neither whole tiles). Both chips.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// CHECK: vector_add: check result #0 (8xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: relu_3d: check result #0 (2x50x70xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: scale_4d: check result #0 (2x3x40x64xbf16): relative error {{.*}} PASS
func.func @vector_add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}

#id3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @relu_3d(%x: tensor<2x50x70xf32>, %y: tensor<2x50x70xf32>) -> tensor<2x50x70xf32> {
  %e = tensor.empty() : tensor<2x50x70xf32>
  %r = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<2x50x70xf32>, tensor<2x50x70xf32>) outs(%e : tensor<2x50x70xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x50x70xf32>
  return %r : tensor<2x50x70xf32>
}

#id4 = affine_map<(i, j, k, l) -> (i, j, k, l)>
func.func @scale_4d(%x: tensor<2x3x40x64xbf16>) -> tensor<2x3x40x64xbf16> {
  %e = tensor.empty() : tensor<2x3x40x64xbf16>
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x40x64xbf16>) outs(%e : tensor<2x3x40x64xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %two = arith.constant 2.0 : bf16
    %m = arith.mulf %a, %two : bf16
    linalg.yield %m : bf16
  } -> tensor<2x3x40x64xbf16>
  return %r : tensor<2x3x40x64xbf16>
}
