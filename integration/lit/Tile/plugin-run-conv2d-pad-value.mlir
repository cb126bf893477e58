// A convolution padded with a value other than zero: the compute kernel
// makes the padding tile from a fresh Dst tile plus the value, and the
// reader copies its rows where a pixel falls into the padding (this was
// refused: the reader wrote zero rows only).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// IR: tile.unary_scalar add dst[%{{.*}}], 1.000000e+00
// IR: tile.pack_tile dst[%{{.*}}] -> @zero
// CHECK: conv: check result #0 (1x16x16x32xf32): relative error {{.*}} PASS
func.func @conv(%input: tensor<1x16x16x32xf32>, %filter: tensor<3x3x32x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %padded = tensor.pad %input low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %one : f32
  } : tensor<1x16x16x32xf32> to tensor<1x18x18x32xf32>
  %empty = tensor.empty() : tensor<1x16x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %filter : tensor<1x18x18x32xf32>, tensor<3x3x32x32xf32>) outs(%init : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %conv : tensor<1x16x16x32xf32>
}
