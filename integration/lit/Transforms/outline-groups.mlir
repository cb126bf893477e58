// Each group (an op with regions or a destination) goes into a private
// function with the views and empty tensors it reads cloned in; a group whose
// only use is an insert takes the insert along. Inlining puts it back.
// RUN: strata-opt %s --strata-outline-groups=min-groups=1 | FileCheck %s
// RUN: strata-opt %s --strata-outline-groups=min-groups=1 --strata-inline-groups | FileCheck %s --check-prefix=BACK
// RUN: strata-opt %s --strata-outline-groups | FileCheck %s --check-prefix=FEW

// CHECK-LABEL: func.func private @f_group(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> attributes {strata.group}
// CHECK: tensor.extract_slice %arg0
// CHECK: tensor.empty
// CHECK: linalg.generic
// CHECK: tensor.insert_slice
// CHECK: return
// CHECK-LABEL: func.func @f
// CHECK-NOT: linalg.generic
// CHECK: %[[R:.*]] = call @f_group(%arg0, %arg1)
// CHECK: return %[[R]]
// BACK-NOT: call
// BACK-NOT: strata.group
// BACK: linalg.generic
// BACK: tensor.insert_slice
// FEW-NOT: call
func.func @f(%x: tensor<8x8xf32>, %big: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = tensor.extract_slice %x[0, 0] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %i = tensor.insert_slice %r into %big[4, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x8xf32>
  return %i : tensor<8x8xf32>
}
