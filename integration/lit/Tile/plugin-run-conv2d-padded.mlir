// A zero-padded convolution (`tensor.pad` by one pixel, then a 3x3
// convolution: "same" output size). Bufferization leaves a zero-filled
// buffer, a subview and a copy of the input; on the tile target these are
// no program: the convolution's reader gathers the unpadded input and
// copies padding rows from a zero tile the compute kernel packs once
// (a fresh Dst tile) into its own L1.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER:      tile.program @conv {
// LOWER-NEXT:   tile.dram_tensor @arg0 input {flatten, host_shape = array<i64: 1, 16, 16, 32>} : !tile.dram<256x32xf32, #tile.interleaved>
// LOWER:        tile.circular_buffer @zero cores
// LOWER:        tile.kernel reader
// LOWER:          tile.cb_wait_front @zero, %c1
// LOWER:          arith.cmpi sge
// LOWER:          tile.noc_read_bytes @arg0
// LOWER:          } else {
// LOWER-NEXT:       tile.noc_read_l1 core [%{{.*}}, %{{.*}}] %{{.*}} -> %{{.*}} size %c64
// LOWER:        tile.kernel compute
// LOWER:          tile.pack_tile dst[%c0] -> @zero[%c0]
// LOWER-NOT:  tile.program

// CHECK: conv: check result #0 (1x16x16x32xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
func.func @conv(%input: tensor<1x16x16x32xf32>, %filter: tensor<3x3x32x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %input low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
  %empty = tensor.empty() : tensor<1x16x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x18x18x32xf32>, tensor<3x3x32x32xf32>) outs(%init : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %conv : tensor<1x16x16x32xf32>
}
