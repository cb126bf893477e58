// An NCHW convolution whose output rows are not whole vectors (30, 31
// wide) is split into one contraction per window position; the last one
// takes the elementwise epilogue into its tile loop and packs its
// accumulator. Its copy-back then wrote into the previous step's result,
// a tensor captured by the parallel loop whose output shares its buffer
// (the epilogue's empty tensor merged with the fill's by CSE), and
// bufferization failed: "'tensor.extract_slice' op not bufferizable under
// the given constraints: cannot avoid RaW conflict". The epilogue now reads
// the packed tile.
// RUN: strata-run %s --entry=square --check | FileCheck %s --check-prefix=SQ
// RUN: strata-run %s --entry=add --check | FileCheck %s --check-prefix=ADD
// SQ: square: check result #0 {{.*}} PASS
// ADD: add: check result #0 {{.*}} PASS

func.func @square(%x: tensor<2x13x8x32xf32>, %w: tensor<17x13x2x3xf32>) -> tensor<2x17x4x30xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x17x4x30xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x17x4x30xf32>) -> tensor<2x17x4x30xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<2x13x8x32xf32>, tensor<17x13x2x3xf32>) outs(%f : tensor<2x17x4x30xf32>) -> tensor<2x17x4x30xf32>
  %e2 = tensor.empty() : tensor<2x17x4x30xf32>
  %r = linalg.mul ins(%c, %c : tensor<2x17x4x30xf32>, tensor<2x17x4x30xf32>) outs(%e2 : tensor<2x17x4x30xf32>) -> tensor<2x17x4x30xf32>
  return %r : tensor<2x17x4x30xf32>
}

func.func @add(%x: tensor<2x13x8x33xf32>, %w: tensor<17x13x2x3xf32>, %b: tensor<2x17x4x31xf32>) -> tensor<2x17x4x31xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x17x4x31xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x17x4x31xf32>) -> tensor<2x17x4x31xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%x, %w : tensor<2x13x8x33xf32>, tensor<17x13x2x3xf32>) outs(%f : tensor<2x17x4x31xf32>) -> tensor<2x17x4x31xf32>
  %e2 = tensor.empty() : tensor<2x17x4x31xf32>
  %r = linalg.add ins(%c, %b : tensor<2x17x4x31xf32>, tensor<2x17x4x31xf32>) outs(%e2 : tensor<2x17x4x31xf32>) -> tensor<2x17x4x31xf32>
  return %r : tensor<2x17x4x31xf32>
}
