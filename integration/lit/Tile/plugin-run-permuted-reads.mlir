// Reads through a permutation or a broadcast that no elementwise or row
// program takes (before: "not lowered: linalg.generic") run as the copy
// program through a strided view of the input (a reinterpret_cast whose
// strides are the input's, permuted, 0 where a loop does not index it),
// into a buffer the op reads whole; a transpose alone is that copy:
// - a 4-D transpose (permutation [3, 1, 2, 0]) and a bf16 one of the
//   leading two of three dimensions ([1, 0, 2], attention's head swap);
// - an op reading one input permuted and another broadcast over its last
//   dimension (differential test seed 7001, case 31: the broadcast's view
//   was sized off the first input's replaced buffer, "page 64 of @arg0 is
//   outside its 64 pages"); the broadcast is now a value per row of the
//   flattened op, read as a column vector without a copy;
// - a [16, 4] tensor broadcast over the middle two of four dimensions.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER

// CHECK: transpose4: check result #0 (31x5x16x16xf32): relative error 0.00e+00 {{.*}} PASS
// CHECK: heads: check result #0 (65x129x4xbf16): relative error 0.00e+00 {{.*}} PASS
// CHECK: permuted_and_broadcast: check result #0 (7x17x17x32xf32): {{.*}} PASS
// CHECK: middle_broadcast: check result #0 (16x31x33x4xf32): {{.*}} PASS
// CHECK-NOT: FAIL
// A transpose is one copy program: its reader moves the elements.
// LOWER: tile.program @transpose4 {
// LOWER-NOT: tile.kernel compute
// LOWER: tile.program @heads {
// The permuted copy, then the elementwise program reading the vector.
// LOWER: tile.program @permuted_and_broadcast.0
// LOWER: tile.program @permuted_and_broadcast.1
// LOWER: tile.dram_tensor @arg1 input {bind = "arg1", column, host_shape = array<i64: 7, 17, 17, 1>, replicate_cols, vector}
// LOWER: tile.kernel compute
// LOWER-NOT: tile.program @permuted_and_broadcast.2
func.func @transpose4(%x: tensor<16x5x16x31xf32>) -> tensor<31x5x16x16xf32> {
  %e = tensor.empty() : tensor<31x5x16x16xf32>
  %t = linalg.transpose ins(%x : tensor<16x5x16x31xf32>) outs(%e : tensor<31x5x16x16xf32>) permutation = [3, 1, 2, 0]
  return %t : tensor<31x5x16x16xf32>
}
func.func @heads(%x: tensor<129x65x4xbf16>) -> tensor<65x129x4xbf16> {
  %e = tensor.empty() : tensor<65x129x4xbf16>
  %t = linalg.transpose ins(%x : tensor<129x65x4xbf16>) outs(%e : tensor<65x129x4xbf16>) permutation = [1, 0, 2]
  return %t : tensor<65x129x4xbf16>
}
func.func @permuted_and_broadcast(%a: tensor<32x17x7x17xf32>, %b: tensor<7x17x17x1xf32>) -> tensor<7x17x17x32xf32> {
  %e = tensor.empty() : tensor<7x17x17x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d2, d0, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<32x17x7x17xf32>, tensor<7x17x17x1xf32>) outs(%e : tensor<7x17x17x32xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<7x17x17x32xf32>
  return %r : tensor<7x17x17x32xf32>
}
func.func @middle_broadcast(%a: tensor<16x31x33x4xf32>, %b: tensor<16x4xf32>) -> tensor<16x31x33x4xf32> {
  %e = tensor.empty() : tensor<16x31x33x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : tensor<16x31x33x4xf32>, tensor<16x4xf32>) outs(%e : tensor<16x31x33x4xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<16x31x33x4xf32>
  return %r : tensor<16x31x33x4xf32>
}
