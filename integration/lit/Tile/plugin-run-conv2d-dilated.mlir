// Dilation 2 (input pixel (oh + 2 kh, ow + 2 kw)) and three tiles of
// filters (B's columns spread over core columns).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// CHECK: conv: check result #0 (1x16x16x96xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
func.func @conv(%input: tensor<1x20x20x32xf32>, %filter: tensor<3x3x32x96xf32>) -> tensor<1x16x16x96xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x16x96xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x96xf32>) -> tensor<1x16x16x96xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x20x20x32xf32>, tensor<3x3x32x96xf32>) outs(%init : tensor<1x16x16x96xf32>) -> tensor<1x16x16x96xf32>
  return %conv : tensor<1x16x16x96xf32>
}
