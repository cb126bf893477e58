// A bf16 softmax of 257 rows (past the last whole register tile) read by
// a matmul (Transforms/lower-vectors-masked-narrow.mlir).
func.func @case(%arg0: tensor<257x32xbf16>, %arg2: tensor<32x128xbf16>) -> tensor<257x128xbf16> {
  %e3 = tensor.empty() : tensor<257x32xbf16>
  %v4 = linalg.softmax dimension(1) ins(%arg0 : tensor<257x32xbf16>) outs(%e3 : tensor<257x32xbf16>) -> tensor<257x32xbf16>
  %c5 = arith.constant 0.0 : bf16
  %e6 = tensor.empty() : tensor<257x128xbf16>
  %f7 = linalg.fill ins(%c5 : bf16) outs(%e6 : tensor<257x128xbf16>) -> tensor<257x128xbf16>
  %v8 = linalg.matmul ins(%v4, %arg2 : tensor<257x32xbf16>, tensor<32x128xbf16>) outs(%f7 : tensor<257x128xbf16>) -> tensor<257x128xbf16>
  return %v8 : tensor<257x128xbf16>
}
