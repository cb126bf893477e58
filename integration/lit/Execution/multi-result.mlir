// Every result of a function is checked, in order.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: matmul_relu: ran on host
// CHECK-NEXT: matmul_relu: check result #0 (32x24xf32): relative error {{.*}} PASS
// CHECK-NEXT: matmul_relu: check result #1 (32x24xf32): relative error {{.*}} PASS
// CHECK-NEXT: matmul_relu: check result #2 (24x32xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
#id = affine_map<(i, j) -> (i, j)>
func.func @matmul_relu(%a: tensor<32x16xf32>, %b: tensor<16x24xf32>)
    -> (tensor<32x24xf32>, tensor<32x24xf32>, tensor<24x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x24xf32>) -> tensor<32x24xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<32x16xf32>, tensor<16x24xf32>) outs(%f : tensor<32x24xf32>) -> tensor<32x24xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x24xf32>) outs(%e : tensor<32x24xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x24xf32>
  %te = tensor.empty() : tensor<24x32xf32>
  %t = linalg.transpose ins(%relu : tensor<32x24xf32>) outs(%te : tensor<24x32xf32>) permutation = [1, 0]
  return %mm, %relu, %t : tensor<32x24xf32>, tensor<32x24xf32>, tensor<24x32xf32>
}
