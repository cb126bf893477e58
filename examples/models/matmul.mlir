// Plain matrix multiplication C = A * B.
// A: tensor<256x512xf32>, B: tensor<512x384xf32> -> C: tensor<256x384xf32>.
// The accumulator is a zero-filled tensor.empty.
func.func @matmul(%a: tensor<256x512xf32>, %b: tensor<512x384xf32>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xf32>, tensor<512x384xf32>)
                     outs(%init : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %c : tensor<256x384xf32>
}
