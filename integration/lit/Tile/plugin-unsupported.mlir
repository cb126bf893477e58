// An elementwise body the tile engines cannot compute is an error at the
// op (S5): here a function with no vector-engine routine.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: cannot run on the tile engines: 'math.atan' has no tile-engine equivalent
func.func @atan(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.atan %v : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
