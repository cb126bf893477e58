// C = A * B with f16 operands and an f32 result (accumulated in f32).
func.func @matmul_f16(%a: tensor<256x512xf16>, %b: tensor<512x384xf16>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xf16>, tensor<512x384xf16>)
                     outs(%init : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %c : tensor<256x384xf32>
}
