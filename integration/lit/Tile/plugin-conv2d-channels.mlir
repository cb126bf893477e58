// A convolution whose channels are not whole tiles (an RGB input) is an
// error at the op: the implicit GEMM's k tiles are the channels of one tap.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: 'linalg.conv_2d_nhwc_hwcf': the implicit GEMM reads the 3 channels of a filter tap as whole 32-channel tiles of matmul_tiles_tf32_f32acc; pad the channels to a multiple of 32
func.func @conv(%input: tensor<1x18x18x3xf32>, %filter: tensor<3x3x3x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x18x18x3xf32>, tensor<3x3x3x32xf32>) outs(%init : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %conv : tensor<1x16x16x32xf32>
}
