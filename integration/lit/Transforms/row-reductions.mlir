// Reductions over loops other than the input's innermost alone become a
// transpose (of the fewest dimensions) and one row reduction per reduced
// loop, innermost first, into fills of the combining op's neutral element;
// the last step keeps the original initial value. A reduction to a scalar
// reduces a row of one. Row reductions, a body that reads loop indices and
// a combination without a neutral element are left alone.
// RUN: strata-opt %s --strata-row-reductions --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @columns
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<100x60xf32>) outs(%{{.*}} : tensor<60x100xf32>) permutation = [1, 0]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[T]] : tensor<60x100xf32>) outs(%arg1 : tensor<60xf32>)
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
func.func @columns(%x: tensor<100x60xf32>, %init: tensor<60xf32>) -> tensor<60xf32> {
  %r = linalg.reduce ins(%x : tensor<100x60xf32>) outs(%init : tensor<60xf32>) dimensions = [0]
    (%a: f32, %b: f32) { %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32 }
  return %r : tensor<60xf32>
}

// Two leading loops of three move as one matrix [30 x 41, 50]; the first
// step squares and sums into a fill of 0, the second sums its results.
// CHECK-LABEL: func.func @outer
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<30x41x50xf32> into tensor<1230x50xf32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[C]] : tensor<1230x50xf32>) outs(%{{.*}} : tensor<50x1230xf32>) permutation = [1, 0]
// CHECK: %[[R:.*]] = tensor.collapse_shape %{{.*}} : tensor<50x30x41xf32> into tensor<1500x41xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1500xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<1500x41xf32>) outs(%[[F]] : tensor<1500xf32>)
// CHECK:   arith.mulf
// CHECK:   arith.addf
// CHECK: %[[E:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [50, 30]
// CHECK: linalg.generic {{.*}} ins(%[[E]] : tensor<50x30xf32>) outs(%arg1 : tensor<50xf32>)
// CHECK-NOT: arith.mulf
// CHECK:   arith.addf
func.func @outer(%x: tensor<30x41x50xf32>, %init: tensor<50xf32>) -> tensor<50xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (k)>],
                       iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%x : tensor<30x41x50xf32>) outs(%init : tensor<50xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<50xf32>
  return %r : tensor<50xf32>
}

// A sum of everything: the rows, then the row of their sums.
// CHECK-LABEL: func.func @whole
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8x9xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK: %[[E:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
// CHECK: %[[I:.*]] = tensor.expand_shape %arg1 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<1x8xf32>) outs(%[[I]] : tensor<1xf32>)
// CHECK: tensor.collapse_shape %[[S]] [] : tensor<1xf32> into tensor<f32>
func.func @whole(%x: tensor<8x9xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.reduce ins(%x : tensor<8x9xf32>) outs(%init : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// CHECK-LABEL: func.func @rows
// CHECK-NOT: linalg.transpose
// CHECK: linalg.reduce
func.func @rows(%x: tensor<4x100x60xf32>, %init: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %r = linalg.reduce ins(%x : tensor<4x100x60xf32>) outs(%init : tensor<4x100xf32>) dimensions = [2]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<4x100xf32>
}

// CHECK-LABEL: func.func @indices
// CHECK-NOT: linalg.transpose
// CHECK: linalg.index
func.func @indices(%x: tensor<100x60xf32>, %init: tensor<60xf32>) -> tensor<60xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<100x60xf32>) outs(%init : tensor<60xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %a, %f : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<60xf32>
  return %r : tensor<60xf32>
}

// CHECK-LABEL: func.func @no_neutral
// CHECK-NOT: linalg.transpose
// CHECK: arith.subf
func.func @no_neutral(%x: tensor<100x60xf32>, %init: tensor<60xf32>) -> tensor<60xf32> {
  %r = linalg.reduce ins(%x : tensor<100x60xf32>) outs(%init : tensor<60xf32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.subf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<60xf32>
}
