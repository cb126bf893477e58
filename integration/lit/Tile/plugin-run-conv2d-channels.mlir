// Convolutions whose channels are not whole tiles: the implicit GEMM's k
// tiles hold runs of several taps' channels, each row of an A tile read in
// pieces of gcd(channels, face columns) values; columns past the last tap
// copy the padding tile. An RGB input (3 channels: one value per piece),
// 3x3 and 7x7 stride 2 with zero padding, and 16 channels unpadded (these
// were refused: "pad the channels to a multiple of 32").
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// IR-LABEL: tile.program @rgb
// IR: tile.noc_read_bytes @{{.*}} size %c4
// CHECK: rgb: check result #0 (1x16x16x32xf32): relative error {{.*}} PASS
func.func @rgb(%input: tensor<1x18x18x3xf32>, %filter: tensor<3x3x3x32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x18x18x3xf32>, tensor<3x3x3x32xf32>) outs(%init : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  return %conv : tensor<1x16x16x32xf32>
}

// CHECK: stem: check result #0 (2x16x16x64xf32): relative error {{.*}} PASS
func.func @stem(%input: tensor<2x32x32x3xf32>, %filter: tensor<7x7x3x64xf32>) -> tensor<2x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %input low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x32x32x3xf32> to tensor<2x38x38x3xf32>
  %empty = tensor.empty() : tensor<2x16x16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %filter : tensor<2x38x38x3xf32>, tensor<7x7x3x64xf32>) outs(%init : tensor<2x16x16x64xf32>) -> tensor<2x16x16x64xf32>
  return %conv : tensor<2x16x16x64xf32>
}

// CHECK: sixteen: check result #0 (1x10x10x48xf32): relative error {{.*}} PASS
func.func @sixteen(%input: tensor<1x12x12x16xf32>, %filter: tensor<3x3x16x48xf32>) -> tensor<1x10x10x48xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x10x10x48xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x10x10x48xf32>) -> tensor<1x10x10x48xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x12x12x16xf32>, tensor<3x3x16x48xf32>) outs(%init : tensor<1x10x10x48xf32>) -> tensor<1x10x10x48xf32>
  return %conv : tensor<1x10x10x48xf32>
}
