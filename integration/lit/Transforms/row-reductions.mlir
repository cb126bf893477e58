// Reductions over loops other than the input's innermost alone become a
// transpose (of the fewest dimensions) and one row reduction per reduced
// loop, innermost first, into fills of the combining op's neutral element;
// initial values that are not a fill (values the reduction adds to) are
// combined after the last step. A reduction to a scalar reduces a row of
// one. Row reductions, a body that reads loop indices and
// a combination without a neutral element are left alone.
// RUN: strata-opt %s --strata-row-reductions --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @columns
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<60xf32>)
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg0 : tensor<100x60xf32>) outs(%{{.*}} : tensor<60x100xf32>) permutation = [1, 0]
// CHECK: %[[M:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[T]] : tensor<60x100xf32>) outs(%[[F]] : tensor<60xf32>)
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[M]], %arg1 : tensor<60xf32>, tensor<60xf32>)
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
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<50x30xf32>) outs(%{{.*}} : tensor<50xf32>)
// CHECK-NOT: arith.mulf
// CHECK:   arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[L]], %arg1 : tensor<50xf32>, tensor<50xf32>)
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
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<1x8xf32>) outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[I:.*]] = tensor.expand_shape %arg1 [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[I]] : tensor<1xf32>, tensor<1xf32>)
// CHECK: tensor.collapse_shape %[[C]] [] : tensor<1xf32> into tensor<f32>
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

// A dot product has no matrix on either side: its products become an
// elementwise op over its loop, summed as a row of one.
// CHECK-LABEL: func.func @dot
// CHECK: %[[P:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%arg0, %arg1 : tensor<97xf32>, tensor<97xf32>) outs(%{{.*}} : tensor<97xf32>)
// CHECK:   arith.mulf
// CHECK-NOT: arith.addf
// CHECK: %[[E:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1]] output_shape [1, 97]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[E]] : tensor<1x97xf32>)
// CHECK-NOT: arith.mulf
// CHECK:   arith.addf
func.func @dot(%x: tensor<97xf32>, %y: tensor<97xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%x, %y : tensor<97xf32>, tensor<97xf32>) outs(%f : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

// A bf16 dot: the products are f32 (the inputs extended), summed into an
// f32 accumulator filled in f32 and rounded to bf16 once. Rounded to bf16
// each, the products carried 2^-9 of themselves into a sum that may cancel
// (differential seed 505 case 36: 2.3e-2 against bf16's 2e-2).
// CHECK-LABEL: func.func @dot_bf16
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<128xbf16>, tensor<128xbf16>) outs(%{{.*}} : tensor<128xf32>)
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK:   arith.extf %{{.*}} : bf16 to f32
// CHECK:   arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} outs(%[[F]] : tensor<1xf32>)
// CHECK:   arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[S]]
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<f32>) outs(%{{.*}} : tensor<bf16>)
// CHECK:   arith.truncf %{{.*}} : f32 to bf16
func.func @dot_bf16(%x: tensor<128xbf16>, %y: tensor<128xbf16>) -> tensor<bf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<bf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<bf16>) -> tensor<bf16>
  %d = linalg.dot ins(%x, %y : tensor<128xbf16>, tensor<128xbf16>) outs(%f : tensor<bf16>) -> tensor<bf16>
  return %d : tensor<bf16>
}

// A vector-matrix product: the matrix, read transposed beside the
// broadcast vector, is transposed first; the products are summed along
// rows.
// CHECK-LABEL: func.func @vecmat
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<67x29xf32>) outs(%{{.*}} : tensor<29x67xf32>) permutation = [1, 0]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%arg0, %[[T]] : tensor<67xf32>, tensor<29x67xf32>) outs(%{{.*}} : tensor<29x67xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<29x67xf32>)
func.func @vecmat(%v: tensor<67xf32>, %b: tensor<67x29xf32>) -> tensor<29xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<29xf32>) -> tensor<29xf32>
  %r = linalg.vecmat ins(%v, %b : tensor<67xf32>, tensor<67x29xf32>) outs(%f : tensor<29xf32>) -> tensor<29xf32>
  return %r : tensor<29xf32>
}

// A long vector summed to a scalar is cut into rows (250 of 400, a divisor
// of 100000 near its square root) that spread over the grid, then the row
// of their sums; a prime length stays one row.
// CHECK-LABEL: func.func @long_row
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [250, 400]
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<250x400xf32>) outs(%{{.*}} : tensor<250xf32>)
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0, 1]] output_shape [1, 250]
func.func @long_row(%x: tensor<100000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<100000xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}
// CHECK-LABEL: func.func @prime_row
// CHECK: tensor.expand_shape %arg0 {{\[\[}}0, 1]] output_shape [1, 100003]
func.func @prime_row(%x: tensor<100003xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<100003xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// A reduction along a column of several inputs (a softmax along dimension
// 0 after fusion: the sum of exp(x - max[j])) or of one input broadcast
// along the reduced loop (a max of a vector broadcast to a matrix) computes
// its term first, as an elementwise op over all its loops, then reduces
// that alone, transposed into rows; the scheduler refused both ("reductions
// other than a 2-D matrix product or along the rows", differential seed
// 303 case 31). A row reduction of several inputs stays whole.
// CHECK-LABEL: func.func @column_term
// CHECK: %[[TERM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<127x16xf32>, tensor<16xf32>) outs(%{{.*}} : tensor<127x16xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.transpose ins(%[[TERM]] : tensor<127x16xf32>) outs(%{{.*}} : tensor<16x127xf32>) permutation = [1, 0]
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
func.func @column_term(%x: tensor<127x16xf32>, %max: tensor<16xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x, %max : tensor<127x16xf32>, tensor<16xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %t = math.exp %d : f32
    %s = arith.addf %t, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @broadcast_max
// CHECK: %[[B:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<127xf32>) outs(%{{.*}} : tensor<127x16xf32>)
// CHECK: linalg.transpose ins(%[[B]] : tensor<127x16xf32>) outs(%{{.*}} : tensor<16x127xf32>) permutation = [1, 0]
// CHECK: arith.maxnumf
func.func @broadcast_max(%v: tensor<127xf32>) -> tensor<16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%v : tensor<127xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// CHECK-LABEL: func.func @variance_rows
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %arg1 : tensor<64x96xf32>, tensor<64xf32>)
func.func @variance_rows(%x: tensor<64x96xf32>, %mean: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<64x96xf32>, tensor<64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %s2 = arith.mulf %d, %d : f32
    %s = arith.addf %s2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// A bf16 sum sums in f32 across its steps (f32 fills, the term extended)
// and rounds once after the last: each step rounded to bf16 left a whole
// sum of 21,632 values 6% off on the tile chips (differential seed 311
// case 46; run in Tile/plugin-run-bf16-whole-sum.mlir).
// CHECK-LABEL: func.func @bf16_whole_sum
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1352xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @bf16_whole_sum(%x: tensor<13x8x13x16xbf16>) -> tensor<bf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<bf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<bf16>) -> tensor<bf16>
  %r = linalg.reduce ins(%x : tensor<13x8x13x16xbf16>) outs(%f : tensor<bf16>) dimensions = [0, 1, 2, 3]
    (%in: bf16, %acc: bf16) {
      %s = arith.addf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  return %r : tensor<bf16>
}
