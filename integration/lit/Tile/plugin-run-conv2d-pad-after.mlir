// A convolution padded after its input only (tensor.pad high) reads the
// padding for pixels past the input's last rows: the reader checks every
// pixel whenever the input is padded. It checked only with padding before
// the input and read past the tensor ("page 16 of @arg0 is outside its 16
// pages"; differential seed 77, case 6), with channels in whole tiles (32)
// and not (31).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// CHECK: whole: check result #0 (1x16x16x64xf32): relative error {{.*}} PASS
func.func @whole(%x: tensor<1x16x31x32xf32>, %w: tensor<2x1x32x64xf32>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x16x31x32xf32> to tensor<1x18x31x32xf32>
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x31x32xf32>, tensor<2x1x32x64xf32>) outs(%f : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %o : tensor<1x16x16x64xf32>
}

// CHECK: ragged: check result #0 (1x16x16x96xf32): relative error {{.*}} PASS
func.func @ragged(%x: tensor<1x16x31x31xf32>, %w: tensor<2x1x31x96xf32>) -> tensor<1x16x16x96xf32> {
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %half : f32
  } : tensor<1x16x31x31xf32> to tensor<1x18x31x31xf32>
  %e = tensor.empty() : tensor<1x16x16x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x96xf32>) -> tensor<1x16x16x96xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
      ins(%p, %w : tensor<1x18x31x31xf32>, tensor<2x1x31x96xf32>) outs(%f : tensor<1x16x16x96xf32>) -> tensor<1x16x16x96xf32>
  return %o : tensor<1x16x16x96xf32>
}
