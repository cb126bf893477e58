// A windowed op becomes one op per window position, read from its indexing
// maps: a strided convolution's terms read strided slices of the input (the
// window position is the slice's offset) and the filter at that position,
// and accumulate into the output in order; a pooling's terms are
// elementwise, applied in one op. Plain contractions are left alone.
// RUN: strata-opt %s --strata-decompose-windows | FileCheck %s
// With contractions=false, a channels-last convolution stays whole (the
// model sums its window inside each register tile); one whose vector loop
// the image reads (NCHW), pooling and depthwise terms are still split.
// RUN: strata-opt %s --strata-decompose-windows=contractions=false | FileCheck %s --check-prefix=WHOLE

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_s2
// CHECK: %[[F:.*]] = linalg.fill
// CHECK: %[[X0:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [1, 8, 8, 8] [1, 2, 2, 1] : tensor<1x17x17x8xf32> to tensor<1x8x8x8xf32>
// CHECK: %[[W0:.*]] = tensor.extract_slice %arg1[0, 0, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : tensor<3x3x8x16xf32> to tensor<8x16xf32>
// CHECK: %[[T0:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[X0]], %[[W0]] : {{.*}}) outs(%[[F]] : tensor<1x8x8x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.extract_slice %arg0[0, 0, 1, 0] [1, 8, 8, 8] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg1[0, 1, 0, 0] [1, 1, 8, 16]
// CHECK: linalg.generic {{.*}} outs(%[[T0]] : tensor<1x8x8x16xf32>)
// The last of the nine positions.
// CHECK: tensor.extract_slice %arg0[0, 2, 2, 0] [1, 8, 8, 8] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg1[2, 2, 0, 0] [1, 1, 8, 16]
// CHECK: %[[T8:.*]] = linalg.generic
// CHECK: return %[[T8]]
// CHECK-NOT: linalg.conv_2d
func.func @conv_s2(%in: tensor<1x17x17x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<1x17x17x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %o : tensor<1x8x8x16xf32>
}

// A dilated window: offsets step by the dilation.
// CHECK-LABEL: func.func @dilated
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [2, 8, 8, 3] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg0[0, 0, 2, 0] [2, 8, 8, 3] [1, 1, 1, 1]
// CHECK: tensor.extract_slice %arg0[0, 0, 4, 0] [2, 8, 8, 3] [1, 1, 1, 1]
func.func @dilated(%in: tensor<2x12x12x3xf32>, %w: tensor<3x3x3x5xf32>) -> tensor<2x8x8x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x5xf32>) -> tensor<2x8x8x5xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x12x12x3xf32>, tensor<3x3x3x5xf32>) outs(%f : tensor<2x8x8x5xf32>) -> tensor<2x8x8x5xf32>
  return %o : tensor<2x8x8x5xf32>
}

// Pooling: elementwise terms, all in one op that applies the body once per
// window position (the window's shape operand, never read, is dropped).
// CHECK-LABEL: func.func @maxpool
// CHECK: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 4, 4, 4] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %arg0[0, 2, 2, 0] [1, 4, 4, 4] [1, 2, 2, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(
// CHECK-NEXT: ^bb0(
// CHECK-COUNT-9: arith.maximumf
// CHECK-NEXT: linalg.yield
// CHECK-NOT: linalg.pooling
func.func @maxpool(%in: tensor<1x9x9x4xf32>) -> tensor<1x4x4x4xf32> {
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %o = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %k : tensor<1x9x9x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %o : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK: linalg.matmul
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// WHOLE-LABEL: func.func @conv_s2
// WHOLE: linalg.conv_2d_nhwc_hwcf
// WHOLE-LABEL: func.func @dilated
// WHOLE: linalg.conv_2d_nhwc_hwcf
// WHOLE-LABEL: func.func @maxpool
// WHOLE-NOT: linalg.pooling
// WHOLE-LABEL: func.func @pointwise
// WHOLE-NOT: linalg.conv_2d_nhwc_hwcf
// WHOLE: linalg.generic
func.func @pointwise(%in: tensor<1x4x4x8xf32>, %w: tensor<1x1x8x16xf32>) -> tensor<1x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x4x4x8xf32>, tensor<1x1x8x16xf32>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %o : tensor<1x4x4x16xf32>
}

// WHOLE-LABEL: func.func @nchw
// WHOLE-NOT: linalg.conv_2d_nchw_fchw
// WHOLE-COUNT-4: linalg.generic
func.func @nchw(%in: tensor<1x3x6x6xf32>, %w: tensor<4x3x2x2xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %o = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x3x6x6xf32>, tensor<4x3x2x2xf32>) outs(%f : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %o : tensor<1x4x5x5xf32>
}

// A 1x1 window read with unit strides is no window: the unit loops (the
// filter's and the batch of one) are dropped and the convolution is a
// contraction over pixels, input channels and output channels.
// WHOLE-LABEL: func.func @conv_1x1
// WHOLE-DAG: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3]] : tensor<1x14x14x32xf32> into tensor<14x14x32xf32>
// WHOLE-DAG: %[[W:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<1x1x32x16xf32> into tensor<32x16xf32>
// WHOLE: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]], %[[W]] : tensor<14x14x32xf32>, tensor<32x16xf32>)
// WHOLE: tensor.expand_shape
// WHOLE-NOT: linalg.conv_2d
// A 1x1 window with stride 2 is still a window: its one term reads a
// strided slice.
// WHOLE-LABEL: func.func @conv_1x1_s2
// WHOLE: tensor.extract_slice %arg0[0, 0, 0, 0] [1, 8, 8, 32] [1, 2, 2, 1]
// WHOLE-NOT: tensor.collapse_shape
func.func @conv_1x1(%x: tensor<1x14x14x32xf32>, %w: tensor<1x1x32x16xf32>, %o: tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x14x14x32xf32>, tensor<1x1x32x16xf32>) outs(%o : tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32>
  return %r : tensor<1x14x14x16xf32>
}

func.func @conv_1x1_s2(%x: tensor<1x15x15x32xf32>, %w: tensor<1x1x32x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x15x15x32xf32>, tensor<1x1x32x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}
