// A convolution of a padded argument in a function that runs as several
// programs (here its result is padded again): the pad's value and the copy
// into its interior are programs of their own, and the convolution reads
// the padded buffer from DRAM. Before, the convolution's part lost the ops
// that pad in place and was refused ("expected a function argument",
// differential seed 304 case 0), and a pad's value written by a linalg.map
// was no program at all.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:     tile.program @pad_conv_pad.0
// LOWER:     tile.program @pad_conv_pad.1
// LOWER:       tile.dram_tensor @{{.*}} input {bind = "arg0"{{.*}}} : !tile.dram<
// LOWER:       tile.dram_tensor @{{.*}} output {bind = "[[PADDED:tmp[0-9]+]]"
// LOWER:     tile.program @pad_conv_pad.2
// LOWER:       tile.dram_tensor @{{.*}} input {bind = "[[PADDED]]"
// LOWER:       tile.dram_tensor @{{.*}} input {bind = "arg1"

// CHECK: pad_conv_pad: check result #0 (1x8x8x16xf32): {{.*}} PASS
func.func @pad_conv_pad(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x8xf32> to tensor<1x8x8x8xf32>
  %e = tensor.empty() : tensor<1x6x6x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x8x8x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %q = tensor.pad %c low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x16xf32> to tensor<1x8x8x16xf32>
  return %q : tensor<1x8x8x16xf32>
}
