// Convolutions in PyTorch's (NCHW x FCHW) and TOSA's (NHWC x FHWC) layouts
// become NHWC x HWCF convolutions between transposes, each a sequence of
// batched matrix transposes (the filter's FCHW -> HWCF takes two); a zero
// initial value is filled again in the new shape.
// RUN: strata-opt %s --strata-channels-last --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @nchw
// CHECK: %[[IC:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : tensor<2x3x10x10xf32> into tensor<2x3x100xf32>
// CHECK: %[[IT:.*]] = linalg.transpose ins(%[[IC]] : tensor<2x3x100xf32>) outs(%{{.*}} : tensor<2x100x3xf32>) permutation = [0, 2, 1]
// CHECK: %[[IN:.*]] = tensor.expand_shape %[[IT]] {{.*}} into tensor<2x10x10x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x8x8x4xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<12x9xf32>) outs(%{{.*}} : tensor<9x12xf32>) permutation = [1, 0]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<9x4x3xf32>) outs(%{{.*}} : tensor<9x3x4xf32>) permutation = [0, 2, 1]
// CHECK: %[[W:.*]] = tensor.expand_shape %{{.*}} into tensor<3x3x3x4xf32>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[IN]], %[[W]] : tensor<2x10x10x3xf32>, tensor<3x3x3x4xf32>) outs(%[[F]] : tensor<2x8x8x4xf32>)
// CHECK: %[[OC:.*]] = tensor.collapse_shape %[[C]] {{.*}} into tensor<2x64x4xf32>
// CHECK: linalg.transpose ins(%[[OC]] : tensor<2x64x4xf32>) outs(%{{.*}} : tensor<2x4x64xf32>) permutation = [0, 2, 1]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @nchw(%in: tensor<2x3x10x10xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%f : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  return %o : tensor<2x4x8x8xf32>
}

// CHECK-LABEL: func.func @fhwc
// CHECK: %[[WC:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : tensor<8x3x3x5xf32> into tensor<8x45xf32>
// CHECK: linalg.transpose ins(%[[WC]] : tensor<8x45xf32>) outs(%{{.*}} : tensor<45x8xf32>) permutation = [1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %{{.*}} : tensor<1x9x9x5xf32>, tensor<3x3x5x8xf32>) outs(%arg2 : tensor<1x7x7x8xf32>)
func.func @fhwc(%in: tensor<1x9x9x5xf32>, %w: tensor<8x3x3x5xf32>, %acc: tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32> {
  %o = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x9x9x5xf32>, tensor<8x3x3x5xf32>) outs(%acc : tensor<1x7x7x8xf32>) -> tensor<1x7x7x8xf32>
  return %o : tensor<1x7x7x8xf32>
}
