// A constant divided by a value (c / x) runs as the reciprocal of x times
// c on the vector engine (it was refused: "'arith.divf' has no tile-engine
// equivalent"); 1 / x stays one reciprocal.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// IR: tile.unary recip dst[%[[S:[a-z0-9_]+]]]
// IR-NEXT: tile.unary_scalar mul dst[%[[S]]], 2.000000e+00
// CHECK: div: check result #0 (64x64xf32): relative error {{.*}} PASS
func.func @div(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %a = math.absf %v : f32
    %p = arith.addf %a, %one : f32
    %t = arith.divf %two, %p : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
