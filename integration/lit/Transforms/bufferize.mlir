// RUN: strata-opt %s --split-input-file --strata-bufferize | FileCheck %s

// The result becomes a trailing out-param that the body writes in place.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: memref<16x32xf32>, %[[B:.*]]: memref<32x8xf32>, %[[C:.*]]: memref<16x8xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<16x8xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : memref<16x32xf32>, memref<32x8xf32>) outs(%[[C]] : memref<16x8xf32>)
// CHECK-NEXT: return{{$}}
func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %c : tensor<16x8xf32>
}

// -----

// Results become out-params in order, after every input.
// CHECK-LABEL: func.func @two_results
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[R0:.*]]: memref<4x8xf32>, %[[R1:.*]]: memref<8x4xf32>) {
// CHECK-DAG: linalg.transpose ins(%[[A]] : memref<4x8xf32>) outs(%[[R1]] : memref<8x4xf32>) permutation = [1, 0]
// CHECK-DAG: memref.copy %[[A]], %[[R0]] : memref<4x8xf32> to memref<4x8xf32>
// CHECK: return{{$}}
func.func @two_results(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %a, %t : tensor<4x8xf32>, tensor<8x4xf32>
}

// -----

// A constant result is copied from a global into the out-param.
// CHECK: memref.global "private" constant @[[G:.*]] : memref<4xi32> = dense<[1, 2, 3, 4]>
// CHECK-LABEL: func.func @constant_result
// CHECK-SAME: (%[[OUT:.*]]: memref<4xi32>) {
// CHECK: %[[V:.*]] = memref.get_global @[[G]] : memref<4xi32>
// CHECK: memref.copy %[[V]], %[[OUT]]
func.func @constant_result() -> tensor<4xi32> {
  %c = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  return %c : tensor<4xi32>
}

// -----

// Calls follow the callee's new signature; temporaries are freed.
// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: memref<4xf32>)
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xf32>
// CHECK: call @helper(%[[A]], %[[T]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK: memref.copy %[[T]], %[[OUT]]
// CHECK: memref.dealloc %[[T]]
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.copy ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
func.func @caller(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Elementwise work on an input writes straight into the out-param.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[X:.*]]: memref<8xi32>, %[[Y:.*]]: memref<8xi32>, %[[OUT:.*]]: memref<8xi32>) {
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[Y]] : memref<8xi32>, memref<8xi32>) outs(%[[OUT]] : memref<8xi32>)
// CHECK: arith.addi
func.func @elementwise(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xi32>, tensor<8xi32>) outs(%e : tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %g : tensor<8xi32>
}

// -----

// A fresh tile computed and inserted into the result is computed in the
// result's buffer (eliminate-empty-tensors): no buffer of its own, no copy.
// CHECK-LABEL: func.func @fill_tile
// CHECK-SAME: (%[[A:.*]]: memref<8x16xf32>, %[[R:.*]]: memref<8x16xf32>) {
// CHECK-NOT: memref.alloc
// CHECK: %[[T:.*]] = memref.subview %[[R]][0, 0] [8, 8] [1, 1]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[T]] :
// CHECK: linalg.add ins(%[[T]], %{{.*}} : {{.*}}) outs(%[[T]] :
func.func @fill_tile(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %t = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = tensor.extract_slice %a[0, 0] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %g = linalg.add ins(%f, %s : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %i = tensor.insert_slice %g into %e[0, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x16xf32>
  %s2 = tensor.extract_slice %a[0, 8] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  %j = tensor.insert_slice %s2 into %i[0, 8] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x16xf32>
  return %j : tensor<8x16xf32>
}
