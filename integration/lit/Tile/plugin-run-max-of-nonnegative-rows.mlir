// A max along rows that are not whole tiles, of values that are never
// negative (|tanh x|): zero padding leaves the max unchanged since every
// real value is at least 0, so the row program pads with 0 (the padding
// chooser asked for -inf, which |tanh(-inf)| is not, and refused it:
// differential seed 304 case 1).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// CHECK: abs_max: check result #0 (64xf32): relative error {{.*}} PASS
func.func @abs_max(%x: tensor<64x257xf32>) -> tensor<64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x257xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %t = math.tanh %in : f32
    %a = math.absf %t : f32
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
