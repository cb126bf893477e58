// Attention over 509 keys (a prime: no divisor near the block the cache
// fits): equal blocks of 102 query rows, the partial last block (101 rows)
// peeled, so the full blocks keep static shapes. Unpeeled, every block was
// dynamic and its tiles padded and masked: 4 x 1021 x 64 ran at 40 GFLOP/s
// instead of 112 on one core.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s
// RUN: strata-run %s --target=host --check | FileCheck %s --check-prefix=CHECKED

// CHECK-LABEL: func.func @attention
// CHECK-NOT: memref<1x?x509xf32>
// CHECK: memref.alloc() {{.*}} : memref<1x102x509xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c408 step %c102
// CHECK: memref.alloc() {{.*}} : memref<1x101x509xf32>
// CHECK-NOT: memref<1x?x509xf32>
// CHECKED: PASS
#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<2x509x64xf32>, %k: tensor<2x509x64xf32>, %v: tensor<2x509x64xf32>) -> tensor<2x509x64xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<2x509x509xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x509x509xf32>) -> tensor<2x509x509xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x509x64xf32>, tensor<2x509x64xf32>) outs(%f0 : tensor<2x509x509xf32>) -> tensor<2x509x509xf32>
  %e1 = tensor.empty() : tensor<2x509x509xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk : tensor<2x509x509xf32>) outs(%e1 : tensor<2x509x509xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x509x509xf32>
  %e2 = tensor.empty() : tensor<2x509x509xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x509x509xf32>) outs(%e2 : tensor<2x509x509xf32>) -> tensor<2x509x509xf32>
  %e3 = tensor.empty() : tensor<2x509x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x509x64xf32>) -> tensor<2x509x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x509x509xf32>, tensor<2x509x64xf32>) outs(%f3 : tensor<2x509x64xf32>) -> tensor<2x509x64xf32>
  return %o : tensor<2x509x64xf32>
}
