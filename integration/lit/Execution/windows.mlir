// Convolutions (strided, dilated, NCHW, depthwise) and pooling, split into
// one term per window position, against the reference loops.
// RUN: strata-run %s --entry=conv_s2 --check | FileCheck %s --check-prefix=S2
// RUN: strata-run %s --entry=conv_dil --check | FileCheck %s --check-prefix=DIL
// RUN: strata-run %s --entry=conv_nchw --check | FileCheck %s --check-prefix=NCHW
// RUN: strata-run %s --entry=depthwise --check | FileCheck %s --check-prefix=DW
// RUN: strata-run %s --entry=maxpool --check | FileCheck %s --check-prefix=POOL
// A 1x1 convolution is a GEMM of collapsed rows, computed in the output
// buffer seen through the inverse reshape (no buffer of its own, no copy).
// RUN: strata-run %s --entry=pointwise --check | FileCheck %s --check-prefix=PW
// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=PW-IR
// S2: conv_s2: check result #0 {{.*}} PASS
// DIL: conv_dil: check result #0 {{.*}} PASS
// NCHW: conv_nchw: check result #0 {{.*}} PASS
// DW: depthwise: check result #0 {{.*}} PASS
// POOL: maxpool: check result #0 {{.*}} PASS
// PW: pointwise: check result #0 {{.*}} PASS
// PW-IR-LABEL: func.func @pointwise
// PW-IR: memref.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : memref<2x9x7x24xf32> into memref<126x24xf32>
// PW-IR-NOT: memref.alloc() {{.*}} : memref<126x24xf32>
// PW-IR-NOT: memref.copy {{.*}} to memref<2x9x7x24xf32>
// PW-IR: return
func.func @conv_s2(%in: tensor<1x17x17x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x17x17x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %o : tensor<1x8x8x16xf32>
}
func.func @conv_dil(%in: tensor<2x12x12x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x8x8x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x5xf32>) -> tensor<2x8x8x5xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x12x12x3xf32>, tensor<3x3x3x5xf32>) outs(%f : tensor<2x8x8x5xf32>) -> tensor<2x8x8x5xf32>
  return %o : tensor<2x8x8x5xf32>
}
func.func @conv_nchw(%in: tensor<2x3x10x10xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  return %o : tensor<2x4x8x8xf32>
}
func.func @depthwise(%in: tensor<1x10x10x8xf32>, %w: tensor<3x3x8xf32>) -> tensor<1x8x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %o = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %o : tensor<1x8x8x8xf32>
}
func.func @maxpool(%in: tensor<1x9x9x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %o = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %k : tensor<1x9x9x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %o : tensor<1x4x4x4xf32>
}

func.func @pointwise(%in: tensor<2x9x7x40xf32>, %w: tensor<1x1x40x24xf32>) -> tensor<2x9x7x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x7x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x7x40xf32>, tensor<1x1x40x24xf32>) outs(%f : tensor<2x9x7x24xf32>) -> tensor<2x9x7x24xf32>
  return %o : tensor<2x9x7x24xf32>
}
