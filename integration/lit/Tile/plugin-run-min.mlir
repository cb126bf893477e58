// A minimum of two tiles (not only of a tile and a constant) runs on the
// vector engine as binary_dst min, on both tile chips (it used to have no
// tile-engine equivalent).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// IR: tile.binary_dst min dst[%{{.*}}], dst[%{{.*}}] -> dst[%{{.*}}]
// IR: tile.binary_dst max
// CHECK: minf: check result #0 (64x96xf32): relative error {{.*}} PASS
func.func @minf(%x: tensor<64x96xf32>, %y: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.minimumf %a, %b : f32
    %t = math.tanh %m : f32
    %s = arith.maximumf %t, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
