// An operand read along both rows and columns of a one-row op (a [1x1]
// read at (i, 0) beside a [1x96] row) is one tile: every output tile reads
// its page 0. It was read as a row broadcast, at the output tile's column:
// page 1 of a one-page tensor (differential seed 3037057754 case 1).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg2 input {host_shape = array<i64: 1, 1>, replicate_cols, replicate_rows} : !tile.dram<32x32xbf16
// LOWER: tile.noc_read_tile @arg2[%c0]

// CHECK: case: check result #0 (1x96xbf16): {{.*}} PASS
func.func @case(%x: tensor<1x96xbf16>, %v: tensor<96xbf16>, %s: tensor<1x1xbf16>) -> tensor<1x96xbf16> {
  %e = tensor.empty() : tensor<1x96xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %v, %s : tensor<1x96xbf16>, tensor<96xbf16>, tensor<1x1xbf16>) outs(%e : tensor<1x96xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16, %out: bf16):
    %m = arith.mulf %a, %b : bf16
    %n = arith.minimumf %m, %c : bf16
    linalg.yield %n : bf16
  } -> tensor<1x96xbf16>
  return %r : tensor<1x96xbf16>
}
