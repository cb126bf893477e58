// C = A * B in bf16 with f32 results: 1000 x 1000 x 1000 (no dimension a multiple of the array).
func.func @matmul_ragged(%a: tensor<1000x1000xbf16>, %b: tensor<1000x1000xbf16>) -> tensor<1000x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1000x1000xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1000x1000xbf16>, tensor<1000x1000xbf16>)
                     outs(%init : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
  return %c : tensor<1000x1000xf32>
}
