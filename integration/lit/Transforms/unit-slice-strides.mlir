// Slices take stride 1 along dimensions of size 1; others keep theirs. A
// rank-reducing slice that keeps a stride other than 1 becomes a full-rank
// slice and a reshape: expand-strided-metadata crashed on its subview when
// it dropped one of several unit dimensions (differential seed 213 case 40,
// SIGSEGV on host and tile; @collapse, run by the second RUN line).
// RUN: strata-opt %s --strata-unit-slice-strides | FileCheck %s
// RUN: strata-run %s --target=host --check --entry=collapse | FileCheck %s --check-prefix=EXEC

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
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK: tensor.insert_slice %[[E]] into %arg1[2, 0] [1, 4] [1, 2] : tensor<1x4xf32> into tensor<8x8xf32>
func.func @insert(%v: tensor<4xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = tensor.insert_slice %v into %d[2, 0] [1, 4] [3, 2] : tensor<4xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @collapse
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[0, 1, 0, 0] [4, 32, 1, 1] [1, 2, 1, 1] : tensor<4x64x1x1xf32> to tensor<4x32x1x1xf32>
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0], [1], [2, 3]] : tensor<4x32x1x1xf32> into tensor<4x32x1xf32>
// EXEC: collapse: check result #0 (4x32x1xf32): relative error 0.00e+00 {{.*}} PASS
func.func @collapse(%x: tensor<4x64x1x1xf32>) -> tensor<4x32x1xf32> {
  %s = tensor.extract_slice %x[0, 1, 0, 0] [4, 32, 1, 1] [1, 2, 1, 1] : tensor<4x64x1x1xf32> to tensor<4x32x1xf32>
  return %s : tensor<4x32x1xf32>
}
