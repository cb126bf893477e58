// The compiled function never writes into its inputs: tensors are values,
// and a caller of the library keeps its input buffers as they were.
// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @tensor_add
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: outs(%[[A]]
// CHECK-NOT: outs(%[[B]]
// CHECK-NOT: memref.copy {{.*}}, %[[A]]
// CHECK: return
func.func @tensor_add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.addf %a, %b : tensor<8xf32>
  return %c : tensor<8xf32>
}

// CHECK-LABEL: func.func @add_into_input
// CHECK-SAME: (%[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: outs(%[[A]]
// CHECK-NOT: outs(%[[B]]
// CHECK: return
func.func @add_into_input(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
