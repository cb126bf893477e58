// A producer that reads its output's old value stays out of its consumers:
// a softmax over a dimension of one value is, once that unit loop is
// dropped, out = out + exp(x), and fused with the broadcast after it, the
// fused op added exp(x) once per broadcast row (relative error 0.82:
// differential seed 11, case 26). Each runs on its own and the program
// computes what the reference lowering does.
// RUN: strata-opt %s --strata-decompose-aggregates --canonicalize --strata-fuse-elementwise | FileCheck %s
// RUN: strata-run %s --check | FileCheck %s --check-prefix=RUN1

// The sum (reading its output) is its own op; the division and the
// broadcast fuse.
// CHECK-LABEL: func.func @softmax_of_one
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %[[S]] : tensor<4xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<32x4xf32>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.divf
// RUN1: softmax_of_one: check result #0 (32x4x1xf32): relative error {{.*}} PASS
func.func @softmax_of_one(%arg0: tensor<4x7xf32>) -> tensor<32x4x1xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %f5 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %v6 = linalg.reduce ins(%arg0 : tensor<4x7xf32>) outs(%f5 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %v7 = tensor.expand_shape %v6 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e8 = tensor.empty() : tensor<4x1xf32>
  %v9 = linalg.softmax dimension(1) ins(%v7 : tensor<4x1xf32>) outs(%e8 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %e10 = tensor.empty() : tensor<32x4x1xf32>
  %v11 = linalg.broadcast ins(%v9 : tensor<4x1xf32>) outs(%e10 : tensor<32x4x1xf32>) dimensions = [0]
  return %v11 : tensor<32x4x1xf32>
}
