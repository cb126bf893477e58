// Attention over 200 keys of 80 (neither a multiple of the 64-wide register
// tile): fusion makes a copy of the scores (Q*K^T, scaled) per consumer of
// the softmax, and the group keeps one. Two copies doubled the work: the
// register tiles of Q*K^T and of P*V are the only 6x64 accumulators, so
// there are two such loops, not three.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | grep -c "iter_args.*-> (vector<1x6x64xf32>)" | FileCheck %s --check-prefix=COUNT
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --check | FileCheck %s %}
// COUNT: {{^}}2{{$}}
// CHECK: attention: check result #0 (2x200x80xf32): relative error {{.*}} PASS
#mq = affine_map<(b, m, n, k) -> (b, m, k)>
#mk = affine_map<(b, m, n, k) -> (b, n, k)>
#mo = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<2x200x80xf32>, %k: tensor<2x200x80xf32>, %v: tensor<2x200x80xf32>) -> tensor<2x200x80xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.11180339887498948 : f32
  %e0 = tensor.empty() : tensor<2x200x200xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
  %qk = linalg.batch_matmul indexing_maps = [#mq, #mk, #mo]
      ins(%q, %k : tensor<2x200x80xf32>, tensor<2x200x80xf32>) outs(%f0 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
  %e1 = tensor.empty() : tensor<2x200x200xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%qk : tensor<2x200x200xf32>) outs(%e1 : tensor<2x200x200xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = arith.mulf %x, %scale : f32
    linalg.yield %y : f32
  } -> tensor<2x200x200xf32>
  %e2 = tensor.empty() : tensor<2x200x200xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<2x200x200xf32>) outs(%e2 : tensor<2x200x200xf32>) -> tensor<2x200x200xf32>
  %e3 = tensor.empty() : tensor<2x200x80xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x200x80xf32>) -> tensor<2x200x80xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x200x200xf32>, tensor<2x200x80xf32>) outs(%f3 : tensor<2x200x80xf32>) -> tensor<2x200x80xf32>
  return %o : tensor<2x200x80xf32>
}

