// C = A * B in bf16 with f32 results: 1024 x 1024 x 1024.
func.func @matmul(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1024x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>)
                     outs(%init : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
