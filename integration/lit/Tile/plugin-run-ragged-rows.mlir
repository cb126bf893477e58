// Row programs over rows that are not whole tiles: each whole input is
// padded with what leaves every reduction unchanged (RowPadding.cpp): a
// softmax with -inf (the max ignores it, exp(-inf - max) adds 0), a sum of
// squares with 0 (a layer norm has none: Tile/plugin-ragged-rows-refused.mlir).
// Both chips.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s --check-prefix=SOFTMAX
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s --check-prefix=SOFTMAX
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s --check-prefix=SUM
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - 2>&1 | FileCheck %s --check-prefix=LOWER
// SOFTMAX: softmax_7x509: check result #0 (7x509xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// SUM: sum_squares: check result #0 (64x100xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// LOWER-LABEL: tile.program @softmax_7x509
// LOWER: tile.dram_tensor @arg0 input {host_shape = array<i64: 7, 509>, pad = 0xFF800000 : f32} : !tile.dram<32x512xf32
// LOWER-LABEL: tile.program @sum_squares
// LOWER: tile.dram_tensor @arg0 input {host_shape = array<i64: 64, 100>} : !tile.dram<64x128xf32
func.func @softmax_7x509(%x: tensor<7x509xf32>) -> tensor<7x509xf32> {
  %e = tensor.empty() : tensor<7x509xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<7x509xf32>) outs(%e : tensor<7x509xf32>) -> tensor<7x509xf32>
  return %y : tensor<7x509xf32>
}

// Each row over its sum of squares: x / sum_j(x * x) (the squares a pass
// of their own before the sum).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @sum_squares(%x: tensor<64x100xf32>) -> tensor<64x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x100xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x100xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x100xf32>, tensor<64xf32>) outs(%e2 : tensor<64x100xf32>) {
  ^bb0(%a: f32, %t: f32, %o: f32):
    %d = arith.divf %a, %t : f32
    linalg.yield %d : f32
  } -> tensor<64x100xf32>
  return %y : tensor<64x100xf32>
}
