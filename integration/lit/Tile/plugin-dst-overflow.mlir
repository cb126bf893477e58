// An elementwise body whose values live at once need more Dst tiles than
// one acquire gives (4 f32 tiles on this chip) is an error naming the op
// that needed the most and the tiles needed: e read by eight in-place
// multiplications before the sum (each on a copy), the products all live.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: cannot run on the tile engines: 'arith.mulf' at line 29 needs 9 Dst tiles for the values live at once; one acquire gives 4
func.func @wide(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %out = tensor.empty() : tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c2 = arith.constant 2.0 : f32
    %c3 = arith.constant 3.0 : f32
    %c4 = arith.constant 4.0 : f32
    %c5 = arith.constant 5.0 : f32
    %c6 = arith.constant 6.0 : f32
    %c7 = arith.constant 7.0 : f32
    %c8 = arith.constant 8.0 : f32
    %c9 = arith.constant 9.0 : f32
    %e = math.exp %v : f32
    %a2 = arith.mulf %e, %c2 : f32
    %a3 = arith.mulf %e, %c3 : f32
    %a4 = arith.mulf %e, %c4 : f32
    %a5 = arith.mulf %e, %c5 : f32
    %a6 = arith.mulf %e, %c6 : f32
    %a7 = arith.mulf %e, %c7 : f32
    %a8 = arith.mulf %e, %c8 : f32
    %a9 = arith.mulf %e, %c9 : f32
    %s2 = arith.addf %e, %a2 : f32
    %s3 = arith.addf %s2, %a3 : f32
    %s4 = arith.addf %s3, %a4 : f32
    %s5 = arith.addf %s4, %a5 : f32
    %s6 = arith.addf %s5, %a6 : f32
    %s7 = arith.addf %s6, %a7 : f32
    %s8 = arith.addf %s7, %a8 : f32
    %s9 = arith.addf %s8, %a9 : f32
    linalg.yield %s9 : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
