// A rank-reducing slice whose kept unit dimension has stride 2 compiles and
// computes its values (it crashed the host target: SIGSEGV in upstream's
// memref::SubViewOp::getDroppedDims, in S5's memref folding); S1's
// strata-unit-slice-strides gives size-1 dimensions stride 1.
// RUN: strata-run %s --target=host --check | FileCheck %s
// CHECK: slice: check result #0 (2x1xf32): relative error {{.*}} PASS
func.func @slice(%x: tensor<1x2x2xf32>) -> tensor<2x1xf32> {
  %s = tensor.extract_slice %x[0, 0, 0] [1, 2, 1] [1, 1, 2] : tensor<1x2x2xf32> to tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}
