// A function the tile target cuts into programs reports the part it cannot
// lower: here, after a matmul, a row sum of remainders (arith.remf: the
// vector engine has none). (A layer norm over rows of 40 was the example
// before its reductions were masked: Tile/plugin-run-masked-rows.)
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: cannot run on the tile engines: 'arith.remf' has no tile-engine equivalent
// CHECK: error: the tile target runs @mm_norm as 2 programs; part 1 (starting with 'linalg.fill') is not lowered
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @mm_norm(%a: tensor<32x64xf32>, %b: tensor<64x40xf32>) -> tensor<32x40xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 40.0 : f32
  %empty = tensor.empty() : tensor<32x40xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x40xf32>) -> tensor<32x40xf32>
  %x = linalg.matmul ins(%a, %b : tensor<32x64xf32>, tensor<64x40xf32>) outs(%init : tensor<32x40xf32>) -> tensor<32x40xf32>
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x40xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %q = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %s : tensor<32x40xf32>, tensor<32xf32>) outs(%f : tensor<32xf32>) {
  ^bb0(%v: f32, %t: f32, %acc: f32):
    %mean = arith.divf %t, %n : f32
    %sq = arith.remf %v, %mean : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %e2 = tensor.empty() : tensor<32x40xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s, %q : tensor<32x40xf32>, tensor<32xf32>, tensor<32xf32>) outs(%e2 : tensor<32x40xf32>) {
  ^bb0(%v: f32, %t: f32, %w: f32, %o: f32):
    %mean = arith.divf %t, %n : f32
    %d = arith.subf %v, %mean : f32
    %var = arith.divf %w, %n : f32
    %r = math.rsqrt %var : f32
    %y0 = arith.mulf %d, %r : f32
    linalg.yield %y0 : f32
  } -> tensor<32x40xf32>
  return %y : tensor<32x40xf32>
}
