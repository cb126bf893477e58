// A layer norm over rows that are not whole tiles has no padding that
// leaves its reductions unchanged ((0 - mean)^2 is not 0 whatever the
// input's padding): its reductions are masked (MaskedRows.cpp). It was
// refused before ("the tile target reduces rows of whole tiles: 40
// columns are not a multiple of 32, and no padding ...").
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// CHECK: layernorm_40: check result #0 (32x40xf32): relative error {{.*}} PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @layernorm_40(%x: tensor<32x40xf32>) -> tensor<32x40xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 40.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x40xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %v = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %s : tensor<32x40xf32>, tensor<32xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%a: f32, %t: f32, %acc: f32):
    %mean = arith.divf %t, %n : f32
    %d = arith.subf %a, %mean : f32
    %q = arith.mulf %d, %d : f32
    %r = arith.addf %q, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e2 = tensor.empty() : tensor<32x40xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %v : tensor<32x40xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e2 : tensor<32x40xf32>) {
  ^bb0(%a: f32, %t: f32, %w: f32, %o: f32):
    %mean = arith.divf %t, %n : f32
    %d = arith.subf %a, %mean : f32
    %var = arith.divf %w, %n : f32
    %r = math.rsqrt %var : f32
    %y0 = arith.mulf %d, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<32x40xf32>
  return %y : tensor<32x40xf32>
}
