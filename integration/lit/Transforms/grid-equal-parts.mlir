// The grid splits m = 100 over the two cores of host-x86-avx512 into two
// equal parts of 50 rows, not whole register tiles (54 + 46): each part's
// extent is static, so no part pads its cache tiles and copies its output
// in and out (a dynamic last part did, once per k tile). The partial
// register tile at a part's end (50 = 8 x 6 + 2) is peeled.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-schedule --strata-apply-schedule | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}) = (0) to (100) step (50)
// CHECK-NOT: tensor<?x
// CHECK: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// CHECK-NOT: tensor<?x
// CHECK: vector.contract {{.*}} : vector<2x1xf32>, vector<1x64xf32> into vector<2x64xf32>
// CHECK-NOT: tensor<?x
// CHECK: return
func.func @matmul(%a: tensor<100x256xf32>, %b: tensor<256x128xf32>) -> tensor<100x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<100x128xf32>) -> tensor<100x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<100x256xf32>, tensor<256x128xf32>) outs(%f : tensor<100x128xf32>) -> tensor<100x128xf32>
  return %c : tensor<100x128xf32>
}
