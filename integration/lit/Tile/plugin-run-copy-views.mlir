// Slices and pads run on the tile chips as the copy program (one reader
// kernel per core gathering a view's elements into L1 and scattering them
// to the destination) where they were refused ("not lowered:
// memref.subview"): a strided 2-D slice (element by element), a 3-D bf16
// slice (runs of a face row), a row wider than one staging tile (chunks),
// a pad with a non-zero value (its fill, then the copy into the interior:
// the runtime keeps the filled tensor for the copy), and a slice that an
// elementwise op reads (copied into a buffer of its own first).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @strided
// LOWER: tile.dram_tensor @arg0 input {flatten, host_shape = array<i64: 9, 40>} : !tile.dram<32x64xf32
// LOWER: tile.dram_tensor @arg1 output {flatten, host_shape = array<i64: 4, 13>} : !tile.dram<32x32xf32
// LOWER: tile.circular_buffer @stage
// LOWER: tile.kernel reader
// LOWER: tile.noc_read_bytes @arg0
// LOWER: tile.noc_read_barrier
// LOWER: tile.noc_write_barrier
// LOWER: tile.noc_write_bytes {{.*}} -> @arg1
// LOWER-NOT: tile.kernel compute
// LOWER-LABEL: tile.program @pad.0
// LOWER: tile.kernel compute
// LOWER: tile.unary_scalar add dst[%c0], 5.000000e-01
// LOWER-LABEL: tile.program @pad.1
// LOWER: tile.dram_tensor @arg0 input {bind = "arg0"
// LOWER: tile.dram_tensor @arg1 output {bind = "arg1"
// LOWER-LABEL: tile.program @slice_then_op.0
// LOWER: tile.noc_write_bytes {{.*}} -> @arg1
// LOWER-LABEL: tile.program @slice_then_op.1
// LOWER: tile.kernel compute

// CHECK: strided: check result #0 (4x13xf32): relative error 0.00e+00 {{.*}} PASS
// CHECK: slice_3d: check result #0 (2x45x37xbf16): relative error 0.00e+00 {{.*}} PASS
// CHECK: wide: check result #0 (2x2500xf32): relative error 0.00e+00 {{.*}} PASS
// CHECK: pad: check result #0 (8x12xf32): relative error 0.00e+00 {{.*}} PASS
// CHECK: slice_then_op: check result #0 (3x20xf32): {{.*}} PASS
// CHECK-NOT: FAIL
func.func @strided(%x: tensor<9x40xf32>) -> tensor<4x13xf32> {
  %s = tensor.extract_slice %x[2, 3] [4, 13] [2, 2] : tensor<9x40xf32> to tensor<4x13xf32>
  return %s : tensor<4x13xf32>
}
func.func @slice_3d(%x: tensor<3x50x70xbf16>) -> tensor<2x45x37xbf16> {
  %s = tensor.extract_slice %x[1, 2, 5] [2, 45, 37] [1, 1, 1] : tensor<3x50x70xbf16> to tensor<2x45x37xbf16>
  return %s : tensor<2x45x37xbf16>
}
func.func @wide(%x: tensor<3x2600xf32>) -> tensor<2x2500xf32> {
  %s = tensor.extract_slice %x[1, 7] [2, 2500] [1, 1] : tensor<3x2600xf32> to tensor<2x2500xf32>
  return %s : tensor<2x2500xf32>
}
func.func @pad(%x: tensor<5x7xf32>) -> tensor<8x12xf32> {
  %c = arith.constant 0.5 : f32
  %p = tensor.pad %x low[1, 2] high[2, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<5x7xf32> to tensor<8x12xf32>
  return %p : tensor<8x12xf32>
}
func.func @slice_then_op(%x: tensor<7x50xf32>) -> tensor<3x20xf32> {
  %s = tensor.extract_slice %x[1, 9] [3, 20] [2, 1] : tensor<7x50xf32> to tensor<3x20xf32>
  %e = tensor.empty() : tensor<3x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<3x20xf32>) outs(%e : tensor<3x20xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}
