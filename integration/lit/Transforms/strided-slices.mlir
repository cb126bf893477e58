// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(strata-strided-slices))' | FileCheck %s
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(strata-strided-slices{contiguous=true}))' | FileCheck %s --check-prefix=ALL

// The q and k columns of a packed q/k/v projection: a strided slice becomes
// an elementwise copy that reads the source at the slice's offsets, split
// in blocks of the slice's columns (block 0 for q, 1 for k).
// CHECK-DAG: #[[Q:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>
// CHECK-DAG: #[[K:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, 1, d2)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[ODD:.+]] = affine_map<(d0, d1) -> (d0, d1 + 5)>
// CHECK-DAG: #[[STRIDED:.+]] = affine_map<(d0, d1) -> (1, d0 * 2 + 3, d1)>
// CHECK-LABEL: func.func @qkv_columns
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[BLOCKS:.+]] = tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [2, 32, 3, 64] : tensor<2x32x192xf32> into tensor<2x32x3x64xf32>
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[BLOCKS]] : tensor<2x32x3x64xf32>) outs(%{{.*}} : tensor<2x32x64xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[K]], #[[ID]]]
func.func @qkv_columns(%qkv: tensor<2x32x192xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xf32>) {
  %q = tensor.extract_slice %qkv[0, 0, 0] [2, 32, 64] [1, 1, 1] : tensor<2x32x192xf32> to tensor<2x32x64xf32>
  %k = tensor.extract_slice %qkv[0, 0, 64] [2, 32, 64] [1, 1, 1] : tensor<2x32x192xf32> to tensor<2x32x64xf32>
  return %q, %k : tensor<2x32x64xf32>, tensor<2x32x64xf32>
}

// Columns that are no block of the row: read at their offset; a prefix
// that is no block stays a slice.
// CHECK-LABEL: func.func @odd_columns
// CHECK: linalg.generic {indexing_maps = [#[[ODD]], {{.*}}]
// CHECK-SAME: ins(%{{.*}} : tensor<4x16xf32>) outs(%{{.*}} : tensor<4x7xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [4, 7] [1, 1]
func.func @odd_columns(%x: tensor<4x16xf32>) -> (tensor<4x7xf32>, tensor<4x7xf32>) {
  %a = tensor.extract_slice %x[0, 5] [4, 7] [1, 1] : tensor<4x16xf32> to tensor<4x7xf32>
  %b = tensor.extract_slice %x[0, 0] [4, 7] [1, 1] : tensor<4x16xf32> to tensor<4x7xf32>
  return %a, %b : tensor<4x7xf32>, tensor<4x7xf32>
}

// Strides and a dropped unit dim: every other row of batch 1.
// CHECK-LABEL: func.func @strided_rows
// CHECK: linalg.generic {indexing_maps = [#[[STRIDED]], {{.*}}]
// CHECK-SAME: outs(%{{.*}} : tensor<4x8xf32>)
func.func @strided_rows(%x: tensor<2x16x8xf32>) -> tensor<4x8xf32> {
  %r = tensor.extract_slice %x[1, 3, 0] [1, 4, 8] [1, 2, 1] : tensor<2x16x8xf32> to tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Contiguous slices stay views: rows of one batch, part of one row, a batch.
// CHECK-LABEL: func.func @contiguous
// CHECK-COUNT-3: tensor.extract_slice
// CHECK-NOT: linalg.generic
func.func @contiguous(%x: tensor<2x16x8xf32>) -> (tensor<1x4x8xf32>, tensor<1x1x5xf32>, tensor<16x8xf32>) {
  %a = tensor.extract_slice %x[1, 4, 0] [1, 4, 8] [1, 1, 1] : tensor<2x16x8xf32> to tensor<1x4x8xf32>
  %b = tensor.extract_slice %x[1, 2, 3] [1, 1, 5] [1, 1, 1] : tensor<2x16x8xf32> to tensor<1x1x5xf32>
  %c = tensor.extract_slice %x[1, 0, 0] [1, 16, 8] [1, 1, 1] : tensor<2x16x8xf32> to tensor<16x8xf32>
  return %a, %b, %c : tensor<1x4x8xf32>, tensor<1x1x5xf32>, tensor<16x8xf32>
}

// With `contiguous`, contiguous slices are copied too; a prefix that is no
// block of its dim stays a slice.
// ALL-LABEL: func.func @contiguous
// ALL-COUNT-3: linalg.generic
// ALL-LABEL: func.func @prefixes
// ALL: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3], [4]] output_shape [1, 1, 2, 32, 64]
// ALL: linalg.generic
// ALL: tensor.extract_slice %{{.*}}[0, 0] [5, 8] [1, 1]
func.func @prefixes(%mask: tensor<1x1x64x64xf32>, %x: tensor<16x8xf32>) -> (tensor<1x1x32x64xf32>, tensor<5x8xf32>) {
  %rows = tensor.extract_slice %mask[0, 0, 0, 0] [1, 1, 32, 64] [1, 1, 1, 1] : tensor<1x1x64x64xf32> to tensor<1x1x32x64xf32>
  %five = tensor.extract_slice %x[0, 0] [5, 8] [1, 1] : tensor<16x8xf32> to tensor<5x8xf32>
  return %rows, %five : tensor<1x1x32x64xf32>, tensor<5x8xf32>
}
