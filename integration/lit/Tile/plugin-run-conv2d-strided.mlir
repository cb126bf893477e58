// Strides and batches of images in the gather: two 17x17 images, stride 2
// (output pixel (n, oh, ow) reads input pixel (n, 2 oh + kh, 2 ow + kw)):
// no runs, one read per row and face column.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER-NOT: arith.minui
// LOWER:     tile.noc_read_bytes @arg0[%{{.*}}] offset %{{.*}} size %{{.*}} -> %{{.*}}

// CHECK: conv: check result #0 (2x8x8x64xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
func.func @conv(%input: tensor<2x17x17x64xf32>, %filter: tensor<3x3x64x64xf32>) -> tensor<2x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x8x8x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%input, %filter : tensor<2x17x17x64xf32>, tensor<3x3x64x64xf32>) outs(%init : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  return %conv : tensor<2x8x8x64xf32>
}
