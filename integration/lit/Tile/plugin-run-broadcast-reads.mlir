// Elementwise ops read vectors and scalars of any rank and map: a value per
// row ([n] at (i)), a value per column ([n, 1] at (j, 0) beside a
// transposed read, as the fusion of a transpose makes; [1, n] at (0, j)),
// a rank-0 scalar beside a transposed read, a scalar broadcast to a vector,
// and an op on rank-0 tensors (one tile). A vector of another shape than
// [n] or [1, n] is declared `vector` (its elements in order), its tile read
// by the output tile's row or column, a scalar's at page 0. All but the
// [1, n] bias were refused ("operand #1 is neither", "not lowered", "this
// op has 0 loops").
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @per_row
// LOWER: tile.dram_tensor @arg1 input {column, host_shape = array<i64: 40>, replicate_cols, vector} : !tile.dram<64x32xf32
// LOWER-LABEL: tile.program @transposed_with_column
// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64: 4, 1>, replicate_rows, vector} : !tile.dram<32x32xbf16
// LOWER-LABEL: tile.program @per_column
// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64: 1, 70>, replicate_rows} : !tile.dram<32x96xf32
// LOWER-LABEL: tile.program @transposed_with_scalar
// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64>, replicate_cols, replicate_rows, vector} : !tile.dram<32x32xf32
// LOWER: tile.noc_read_tile @arg1[%c0]
// LOWER-LABEL: tile.program @scalar_to_vector
// LOWER-LABEL: tile.program @on_scalars
// LOWER: tile.dram_tensor @arg2 output {host_shape = array<i64>, vector} : !tile.dram<32x32xf32

// CHECK: per_row: check result #0 (40x70xf32): {{.*}} PASS
// CHECK: transposed_with_column: check result #0 (64x4xbf16): {{.*}} PASS
// CHECK: per_column: check result #0 (40x70xf32): {{.*}} PASS
// CHECK: transposed_with_scalar: check result #0 (31x17xf32): {{.*}} PASS
// CHECK: scalar_to_vector: check result #0 (37xf32): {{.*}} PASS
// CHECK: on_scalars: check result #0 (f32): {{.*}} PASS
#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
func.func @per_row(%x: tensor<40x70xf32>, %v: tensor<40xf32>) -> tensor<40x70xf32> {
  %e = tensor.empty() : tensor<40x70xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %v : tensor<40x70xf32>, tensor<40xf32>) outs(%e : tensor<40x70xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<40x70xf32>
  return %r : tensor<40x70xf32>
}
func.func @transposed_with_column(%x: tensor<4x64xbf16>, %c: tensor<4x1xbf16>) -> tensor<64x4xbf16> {
  %e = tensor.empty() : tensor<64x4xbf16>
  %r = linalg.generic {indexing_maps = [#t, affine_map<(i, j) -> (j, 0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<4x64xbf16>, tensor<4x1xbf16>) outs(%e : tensor<64x4xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %o: bf16):
    %s = arith.subf %a, %b : bf16
    linalg.yield %s : bf16
  } -> tensor<64x4xbf16>
  return %r : tensor<64x4xbf16>
}
func.func @per_column(%x: tensor<40x70xf32>, %v: tensor<1x70xf32>) -> tensor<40x70xf32> {
  %e = tensor.empty() : tensor<40x70xf32>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (0, j)>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %v : tensor<40x70xf32>, tensor<1x70xf32>) outs(%e : tensor<40x70xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<40x70xf32>
  return %r : tensor<40x70xf32>
}
func.func @transposed_with_scalar(%x: tensor<17x31xf32>, %s: tensor<f32>) -> tensor<31x17xf32> {
  %e = tensor.empty() : tensor<31x17xf32>
  %r = linalg.generic {indexing_maps = [#t, affine_map<(i, j) -> ()>, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<17x31xf32>, tensor<f32>) outs(%e : tensor<31x17xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<31x17xf32>
  return %r : tensor<31x17xf32>
}
func.func @scalar_to_vector(%s: tensor<f32>) -> tensor<37xf32> {
  %e = tensor.empty() : tensor<37xf32>
  %r = linalg.broadcast ins(%s : tensor<f32>) outs(%e : tensor<37xf32>) dimensions = [0]
  return %r : tensor<37xf32>
}
func.func @on_scalars(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %b : tensor<f32>, tensor<f32>) outs(%e : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = math.exp %s : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
