// Batched matrix multiplication C[b] = A[b] * B[b].
// A: tensor<4x128x256xf32>, B: tensor<4x256x64xf32> -> C: tensor<4x128x64xf32>.
func.func @batch_matmul(%a: tensor<4x128x256xf32>, %b: tensor<4x256x64xf32>) -> tensor<4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x128x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<4x128x256xf32>, tensor<4x256x64xf32>)
                           outs(%init : tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
  return %c : tensor<4x128x64xf32>
}
