// A softmax along the columns of a square matrix: the sums of the
// transposed rows (a value per row of the program that makes them) scale
// the columns, so the row program ends before the scaling, writes the
// reciprocals to DRAM, and an elementwise program reads them broadcast
// along the rows. Read per column inside the row program they scaled each
// row by its own value (relative error 9.4e-2).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:     tile.program @softmax_cols.4
// LOWER:       tile.dram_tensor @arg2 output {bind = "[[SUMS:tmp[0-9]+]]", column, host_shape = array<i64: 64>}
// LOWER:     tile.program @softmax_cols.5
// LOWER-NEXT:  tile.dram_tensor @arg0 input {bind = "arg1"}
// LOWER-NEXT:  tile.dram_tensor @arg1 input {bind = "[[SUMS]]", host_shape = array<i64: 64>, replicate_rows}
// LOWER-NEXT:  tile.dram_tensor @arg2 output {bind = "arg1"}

// CHECK: softmax_cols: check result #0 (64x64xf32): {{.*}} PASS
func.func @softmax_cols(%arg0: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.softmax dimension(0) ins(%arg0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// CHECK: softmax_mid: check result #0 (2x64x64xf32): {{.*}} PASS
func.func @softmax_mid(%arg0: tensor<2x64x64xf32>) -> tensor<2x64x64xf32> {
  %e = tensor.empty() : tensor<2x64x64xf32>
  %r = linalg.softmax dimension(1) ins(%arg0 : tensor<2x64x64xf32>) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %r : tensor<2x64x64xf32>
}

// A softmax along the columns of a vector broadcast along the rows:
// fusion makes the column max one op of the vector (a reduction of an input
// broadcast along the reduced loop) and the sum of exp(x - max[j]) one op
// of two inputs; the core computes each term first, then reduces it
// transposed into rows. Both were refused ("reductions other than a 2-D
// matrix product or along the rows", differential seed 303 case 31).
// CHECK: softmax_broadcast_cols: check result #0 (127x16xf32): {{.*}} PASS
func.func @softmax_broadcast_cols(%v: tensor<127xf32>) -> tensor<127x16xf32> {
  %e0 = tensor.empty() : tensor<127x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<127xf32>) outs(%e0 : tensor<127x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<127x16xf32>
  %e = tensor.empty() : tensor<127x16xf32>
  %r = linalg.softmax dimension(0) ins(%b : tensor<127x16xf32>) outs(%e : tensor<127x16xf32>) -> tensor<127x16xf32>
  return %r : tensor<127x16xf32>
}
