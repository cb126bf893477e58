// Q * K^T written as a batch matmul with K indexed (b, n, k): K is
// transposed once so the vector loop n is contiguous in the operand that
// uses it; a plain batch matmul is left alone.
// RUN: strata-opt %s --strata-normalize-contractions | FileCheck %s

#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @scores
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x16x32xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<2x32x16xf32>) outs(%[[E]] : tensor<2x16x32xf32>) permutation = [0, 2, 1]
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[KT]], #[[O]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %[[T]] : tensor<2x8x16xf32>, tensor<2x16x32xf32>)
func.func @scores(%q: tensor<2x8x16xf32>, %k: tensor<2x32x16xf32>, %s: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  %r = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x8x16xf32>, tensor<2x32x16xf32>) outs(%s : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// CHECK-LABEL: func.func @plain
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul
func.func @plain(%a: tensor<2x8x16xf32>, %b: tensor<2x16x32xf32>, %c: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%c : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}
