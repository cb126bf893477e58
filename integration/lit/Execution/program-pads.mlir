// A convolution whose input the program pads (low and high) where S4 pads
// the operand itself: the program's pad is rewritten as a fill of the
// padded buffer and a copy of the data at the low padding's offsets, with
// the pad's own value (the data once landed at offset 0 and the fill was
// always zero: 128 output channels took that path, 96 did not).
// RUN: strata-run %s --entry=conv_pad1 --check | FileCheck %s --check-prefix=P1
// RUN: strata-run %s --entry=conv_pad_half --check | FileCheck %s --check-prefix=PH
// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=IR
// P1: conv_pad1: check result #0 {{.*}} PASS
// PH: conv_pad_half: check result #0 {{.*}} PASS
// IR-LABEL: func.func @conv_pad1
// IR: memref.subview %{{.*}}[0, 1, 1, 0] [1, 3, 3, 16] [1, 1, 1, 1] : memref<1x5x5x16xf32>
// IR-LABEL: func.func @conv_pad_half
// (bufferization writes the pad's fill as linalg.fill or, since LLVM 22.1.8,
// as a linalg.map yielding the value)
// IR: linalg.{{fill ins\(%[a-z0-9_]+ : f32\)|map}} outs(%{{.*}} : memref<1x7x6x16xf32>)
// IR: memref.subview %{{.*}}[0, 2, 1, 0] [1, 4, 4, 16] [1, 1, 1, 1] : memref<1x7x6x16xf32>
func.func @conv_pad1(%in: tensor<1x3x3x16xf32>, %w: tensor<3x3x16x128xf32>) -> tensor<1x3x3x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x3x3x16xf32> to tensor<1x5x5x16xf32>
  %e = tensor.empty() : tensor<1x3x3x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x128xf32>) -> tensor<1x3x3x128xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x5x5x16xf32>, tensor<3x3x16x128xf32>) outs(%f : tensor<1x3x3x128xf32>) -> tensor<1x3x3x128xf32>
  return %o : tensor<1x3x3x128xf32>
}

func.func @conv_pad_half(%in: tensor<1x4x4x16xf32>, %w: tensor<3x3x16x192xf32>) -> tensor<1x5x4x192xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %in low[0, 2, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %half : f32
  } : tensor<1x4x4x16xf32> to tensor<1x7x6x16xf32>
  %e = tensor.empty() : tensor<1x5x4x192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x4x192xf32>) -> tensor<1x5x4x192xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x6x16xf32>, tensor<3x3x16x192xf32>) outs(%f : tensor<1x5x4x192xf32>) -> tensor<1x5x4x192xf32>
  return %o : tensor<1x5x4x192xf32>
}
