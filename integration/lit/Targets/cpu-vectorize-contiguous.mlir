// The cpu plugin vectorizes only loops along which memory is contiguous: a
// contraction with a transposed operand (Q·Kᵀ, K indexed [b, n, k]) must not
// be vectorized along a strided dimension, which turns every vector load into
// a gather (element-wise inserts into !llvm.array<16 x vector<1xf32>>) and
// ran 10x slower than scalar code.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=lowered -o - | FileCheck %s
// CHECK-LABEL: llvm.func @qk
// CHECK-NOT: !llvm.array<16 x vector<1xf32>>
// CHECK-LABEL: llvm.func @_mlir_ciface_qk
#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @qk(%q: tensor<2x64x32xf32>, %k: tensor<2x64x32xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %r = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x64x32xf32>, tensor<2x64x32xf32>) outs(%f : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %r : tensor<2x64x64xf32>
}
