// A division by an operand broadcast along the op's loops (a softmax's row
// sums) becomes a multiplication by its reciprocal, computed once per row by
// a new elementwise op. A division by a full-size operand, or an operand
// also used otherwise, is left alone.
// RUN: strata-opt %s --strata-reciprocal-divisions | FileCheck %s

// CHECK-LABEL: func.func @normalize
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.divf %[[ONE]], %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[R]] : tensor<4x16xf32>, tensor<4xf32>)
// CHECK: arith.mulf
// CHECK-NOT: arith.divf
// CHECK-LABEL: func.func @full
// CHECK: arith.divf
// CHECK-LABEL: func.func @also_added
// CHECK-NOT: arith.mulf
#x = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @normalize(%x: tensor<4x16xf32>, %s: tensor<4xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @full(%x: tensor<4x16xf32>, %s: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#x, #x, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x16xf32>, tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
func.func @also_added(%x: tensor<4x16xf32>, %s: tensor<4xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %y = linalg.generic {indexing_maps = [#x, #row, #x], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<4x16xf32>, tensor<4xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.divf %a, %b : f32
    %t = arith.addf %d, %b : f32
    linalg.yield %t : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}
