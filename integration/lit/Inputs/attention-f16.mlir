// Attention of 4 heads of 100 tokens of 64 in f16, as PyTorch exports it
// (integration/bench/gpu_bench.py mlir attn_f16_1x4x100x64).
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<4x100x64xf16>, %k: tensor<4x100x64xf16>, %v: tensor<4x100x64xf16>) -> tensor<4x100x64xf16> {
  %zero = arith.constant 0.0 : f16
  %kt0 = tensor.empty() : tensor<4x64x100xf16>
  %kt = linalg.transpose ins(%k : tensor<4x100x64xf16>) outs(%kt0 : tensor<4x64x100xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x100x100xf16>
  %s1 = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x100x64xf16>, tensor<4x64x100xf16>) outs(%s1 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x100x100xf16>) outs(%s0 : tensor<4x100x100xf16>) {
  ^bb0(%in: f16, %out: f16):
    %c = arith.constant 0.125 : f16
    %r = arith.mulf %in, %c : f16
    linalg.yield %r : f16
  } -> tensor<4x100x100xf16>
  %p0 = tensor.empty() : tensor<4x100x100xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x100x100xf16>) outs(%p0 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %o0 = tensor.empty() : tensor<4x100x64xf16>
  %o1 = linalg.fill ins(%zero : f16) outs(%o0 : tensor<4x100x64xf16>) -> tensor<4x100x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x100x100xf16>, tensor<4x100x64xf16>) outs(%o1 : tensor<4x100x64xf16>) -> tensor<4x100x64xf16>
  return %o : tensor<4x100x64xf16>
}
