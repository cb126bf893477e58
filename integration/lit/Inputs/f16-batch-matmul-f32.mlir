// f16 x f16 batched products summed into f32 (lit Transforms/lower-vectors-mixed-contract.mlir).
func.func @bm(%a: tensor<2x8x8xf16>, %b: tensor<2x8x8xf16>) -> tensor<2x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x8x8xf16>, tensor<2x8x8xf16>) outs(%f : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %r : tensor<2x8x8xf32>
}
