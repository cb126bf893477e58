// Reductions other than matrix products and row reductions that
// strata-row-reductions cannot rewrite into row reductions (a combination
// with no neutral element: x - acc) are not yet scheduled for a grid of
// scratchpads: an error at the op (S3), not a wrong program.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: 'linalg.generic': reductions other than a 2-D matrix product or along the rows of a 2-D tensor are not yet scheduled for a grid of scratchpads ('l1' of 'tile-wormhole-n150')
func.func @column_sum(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.subf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
