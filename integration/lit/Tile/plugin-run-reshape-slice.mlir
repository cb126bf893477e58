// A strided slice of a strided slice of a reshaped tensor runs as the copy
// program: the view's layout (offset and strides through the collapse and
// both subviews) says where each element lies in the argument. It was
// refused ("not lowered: memref.subview"), and before that crashed: the
// sequence of programs, chosen because of the reshape, had no part to name
// in its message (found by the differential test, seed 1484713907 case 20).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.program @case
// LOWER: tile.dram_tensor @arg0 input {bind = "arg0", flatten, host_shape = array<i64: 61, 61>} : !tile.dram<64x64xf32
// LOWER: tile.kernel reader
// LOWER: tile.noc_read_bytes @arg0
// LOWER: tile.noc_write_bytes {{.*}} -> @arg1
// LOWER-NOT: tile.kernel compute
// CHECK: case: check result #0 (195xf32): relative error 0.00e+00 {{.*}} PASS
func.func @case(%arg0: tensor<61x61xf32>) -> tensor<195xf32> {
  %v1 = tensor.collapse_shape %arg0 [[0, 1]] : tensor<61x61xf32> into tensor<3721xf32>
  %v2 = tensor.extract_slice %v1[1386] [419] [2] : tensor<3721xf32> to tensor<419xf32>
  %v3 = tensor.extract_slice %v2[8] [195] [2] : tensor<419xf32> to tensor<195xf32>
  return %v3 : tensor<195xf32>
}
