// Attention of 2 heads of 256 tokens of 128 in bf16, as PyTorch exports it
// (integration/bench/gpu_bench.py mlir attn_bf16_1x2x256x128).
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<2x256x128xbf16>, %k: tensor<2x256x128xbf16>, %v: tensor<2x256x128xbf16>) -> tensor<2x256x128xbf16> {
  %zero = arith.constant 0.0 : bf16
  %kt0 = tensor.empty() : tensor<2x128x256xbf16>
  %kt = linalg.transpose ins(%k : tensor<2x256x128xbf16>) outs(%kt0 : tensor<2x128x256xbf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<2x256x256xbf16>
  %s1 = linalg.fill ins(%zero : bf16) outs(%s0 : tensor<2x256x256xbf16>) -> tensor<2x256x256xbf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x256x128xbf16>, tensor<2x128x256xbf16>) outs(%s1 : tensor<2x256x256xbf16>) -> tensor<2x256x256xbf16>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x256x256xbf16>) outs(%s0 : tensor<2x256x256xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %c = arith.constant 0.0883883476 : bf16
    %r = arith.mulf %in, %c : bf16
    linalg.yield %r : bf16
  } -> tensor<2x256x256xbf16>
  %p0 = tensor.empty() : tensor<2x256x256xbf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x256x256xbf16>) outs(%p0 : tensor<2x256x256xbf16>) -> tensor<2x256x256xbf16>
  %o0 = tensor.empty() : tensor<2x256x128xbf16>
  %o1 = linalg.fill ins(%zero : bf16) outs(%o0 : tensor<2x256x128xbf16>) -> tensor<2x256x128xbf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x256x256xbf16>, tensor<2x256x128xbf16>) outs(%o1 : tensor<2x256x128xbf16>) -> tensor<2x256x128xbf16>
  return %o : tensor<2x256x128xbf16>
}
