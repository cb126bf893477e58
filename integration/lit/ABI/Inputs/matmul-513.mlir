// C[513x257] = A[513x129] * B[129x257]: small enough that its scratch buffers
// are a large part of a call.
func.func @matmul(%a: tensor<513x129xf32>, %b: tensor<129x257xf32>) -> tensor<513x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<513x257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<513x257xf32>) -> tensor<513x257xf32>
  %c = linalg.matmul ins(%a, %b : tensor<513x129xf32>, tensor<129x257xf32>) outs(%f : tensor<513x257xf32>) -> tensor<513x257xf32>
  return %c : tensor<513x257xf32>
}
