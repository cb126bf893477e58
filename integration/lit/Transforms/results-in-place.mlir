// A result reshaped from a buffer of its own is computed in the output
// argument: the allocation becomes the inverse reshape of the output and
// the copy goes. Not when the buffer is still used after the copy.
// RUN: strata-opt %s --pass-pipeline="builtin.module(func.func(strata-results-in-place))" | FileCheck %s

// CHECK-LABEL: func.func @expanded
// CHECK-SAME: (%[[OUT:.*]]: memref<2x3x4xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[ROWS]] : memref<6x4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @expanded(%out: memref<2x3x4xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<6x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<6x4xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  memref.copy %e, %out : memref<2x3x4xf32> to memref<2x3x4xf32>
  return
}

// Two reshapes: collapse then expand, inverted in the other order.
// CHECK-LABEL: func.func @twice
// CHECK-NOT: memref.alloc
// CHECK: memref.collapse_shape
// CHECK: memref.expand_shape {{.*}} output_shape [2, 12] : memref<24xf32> into memref<2x12xf32>
// CHECK-NOT: memref.copy
func.func @twice(%out: memref<24xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2x12xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<2x12xf32>)
  %c = memref.collapse_shape %a [[0, 1]] : memref<2x12xf32> into memref<24xf32>
  %e = memref.expand_shape %c [[0, 1]] output_shape [4, 6] : memref<24xf32> into memref<4x6xf32>
  %f = memref.collapse_shape %e [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  memref.copy %f, %out : memref<24xf32> to memref<24xf32>
  return
}

// CHECK-LABEL: func.func @used_after
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @used_after(%out: memref<2x3x4xf32>, %other: memref<6x4xf32>) {
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<6x4xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<6x4xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  memref.copy %e, %out : memref<2x3x4xf32> to memref<2x3x4xf32>
  memref.copy %a, %other : memref<6x4xf32> to memref<6x4xf32>
  return
}
