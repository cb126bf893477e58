// Convolutions as PyTorch and TOSA write them run on the tile chips:
// strata-channels-last moves them to NHWC x HWCF between transposes; a bias
// added to the NCHW result reads the convolution's output transposed (the
// elementwise program unpacks that operand transposed); a TOSA-layout
// filter; a 1x1 convolution collapsed into a GEMM of pixel rows (a generic
// product, specialized to a matmul for the product program). These were
// refused or split into window positions no tile program ran.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR

// IR-LABEL: tile.program @bias.4
// IR: tile.unpack_tile @in0[%{{.*}}] -> dst[%{{.*}}] transpose
// IR: tile.binary_dst add
// CHECK: bias: check result #0 (2x4x8x8xf32): relative error {{.*}} PASS
func.func @bias(%in: tensor<2x3x10x10xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %e2 = tensor.empty() : tensor<2x4x8x8xf32>
  %r = linalg.add ins(%o, %b : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%e2 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  return %r : tensor<2x4x8x8xf32>
}

// CHECK: fhwc: check result #0 (1x7x7x8xf32): relative error {{.*}} PASS
func.func @fhwc(%in: tensor<1x9x9x5xf32>, %w: tensor<8x3x3x5xf32>) -> tensor<1x7x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  %o = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x9x9x5xf32>, tensor<8x3x3x5xf32>) outs(%f : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %o : tensor<1x7x7x8xf32>
}

// CHECK: pointwise: check result #0 (2x9x7x24xf32): relative error {{.*}} PASS
func.func @pointwise(%in: tensor<2x9x7x40xf32>, %w: tensor<1x1x40x24xf32>) -> tensor<2x9x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x7x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x7x40xf32>, tensor<1x1x40x24xf32>) outs(%f : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  return %o : tensor<2x9x7x24xf32>
}
