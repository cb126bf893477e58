// Slices take stride 1 along dimensions of size 1; others keep theirs.
// RUN: strata-opt %s --strata-unit-slice-strides | FileCheck %s

// CHECK-LABEL: func.func @extract
// CHECK: tensor.extract_slice %arg0[0, 0, 0] [1, 2, 1] [1, 1, 1] : tensor<1x2x2xf32> to tensor<2x1xf32>
func.func @extract(%x: tensor<1x2x2xf32>) -> tensor<2x1xf32> {
  %s = tensor.extract_slice %x[0, 0, 0] [1, 2, 1] [1, 1, 2] : tensor<1x2x2xf32> to tensor<2x1xf32>
  return %s : tensor<2x1xf32>
}

// CHECK-LABEL: func.func @strided
// CHECK: tensor.extract_slice %arg0[0, 1] [4, 2] [2, 3] : tensor<8x8xf32> to tensor<4x2xf32>
func.func @strided(%x: tensor<8x8xf32>) -> tensor<4x2xf32> {
  %s = tensor.extract_slice %x[0, 1] [4, 2] [2, 3] : tensor<8x8xf32> to tensor<4x2xf32>
  return %s : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @insert
// CHECK: tensor.insert_slice %arg0 into %arg1[2, 0] [1, 4] [1, 2] : tensor<4xf32> into tensor<8x8xf32>
func.func @insert(%v: tensor<4xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = tensor.insert_slice %v into %d[2, 0] [1, 4] [3, 2] : tensor<4xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
