// Q * K^T written as a batch matmul with K indexed (b, n, k): K is
// transposed once so the vector loop n is contiguous in the operand that
// uses it; a plain batch matmul is left alone. Parallel loops every operand
// reads as one block are collapsed (below).
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

// A linear layer on a (batch, sequence, features) tensor: batch and sequence
// are read as one contiguous block by every operand that uses them, so they
// become one loop of rows; the ReLU epilogue follows into that shape and
// still reads the contraction's result directly. A row reduction (one
// input) is no contraction and keeps its loops.
// CHECK-LABEL: func.func @linear3d
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<4x7x32xf32> into tensor<28x32xf32>
// CHECK: %[[MM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]], %arg1 : tensor<28x32xf32>, tensor<32x16xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[MM]] : tensor<28x16xf32>)
// CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1], [2]] output_shape [4, 7, 16]
// CHECK-LABEL: func.func @rowsum
// CHECK-NOT: collapse_shape
#x3 = affine_map<(b, s, f, d) -> (b, s, d)>
#w2 = affine_map<(b, s, f, d) -> (d, f)>
#o3 = affine_map<(b, s, f, d) -> (b, s, f)>
#e3 = affine_map<(b, s, f) -> (b, s, f)>
func.func @linear3d(%x: tensor<4x7x32xf32>, %w: tensor<32x16xf32>) -> tensor<4x7x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x7x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x7x16xf32>) -> tensor<4x7x16xf32>
  %mm = linalg.generic {indexing_maps = [#x3, #w2, #o3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x7x32xf32>, tensor<32x16xf32>) outs(%f : tensor<4x7x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x7x16xf32>
  %o = tensor.empty() : tensor<4x7x16xf32>
  %r = linalg.generic {indexing_maps = [#e3, #e3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%mm : tensor<4x7x16xf32>) outs(%o : tensor<4x7x16xf32>) {
  ^bb0(%a: f32, %c: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x7x16xf32>
  return %r : tensor<4x7x16xf32>
}
func.func @rowsum(%x: tensor<4x7x32xf32>) -> tensor<4x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x7xf32>) -> tensor<4x7xf32>
  %r = linalg.reduce ins(%x : tensor<4x7x32xf32>) outs(%f : tensor<4x7xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4x7xf32>
}
