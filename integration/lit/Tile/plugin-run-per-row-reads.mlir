// An elementwise op over more than two dimensions reading a value per row
// of the matrix its leading dimensions flatten to (map (d0, d1, d2) ->
// (d0, d1)): the vector is read as a column, each row's value in every
// column of its tiles. Before, only 2-D ops took such a read (differential
// seed 401 cases 20, 29 and 36: "the tile target lowers a function made
// of ...").
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @min_per_row
// LOWER:         tile.dram_tensor @arg1 input {column, host_shape = array<i64: 16, 13>, replicate_cols, vector}
// LOWER-LABEL: tile.program @broadcast_last
// LOWER:         tile.dram_tensor @arg0 input {column, host_shape = array<i64: 17, 64>, replicate_cols, vector}

// CHECK: min_per_row: check result #0 (16x13x8xf32): relative error {{.*}} PASS
func.func @min_per_row(%x: tensor<16x13x8xf32>, %v: tensor<16x13xf32>) -> tensor<16x13x8xf32> {
  %e = tensor.empty() : tensor<16x13x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %v : tensor<16x13x8xf32>, tensor<16x13xf32>) outs(%e : tensor<16x13x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.minimumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<16x13x8xf32>
  return %r : tensor<16x13x8xf32>
}

// CHECK: broadcast_last: check result #0 (17x64x8xf32): relative error {{.*}} PASS
func.func @broadcast_last(%v: tensor<17x64xf32>) -> tensor<17x64x8xf32> {
  %e = tensor.empty() : tensor<17x64x8xf32>
  %r = linalg.broadcast ins(%v : tensor<17x64xf32>) outs(%e : tensor<17x64x8xf32>) dimensions = [2]
  return %r : tensor<17x64x8xf32>
}
