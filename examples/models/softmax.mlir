// Row-wise softmax: y[i, j] = exp(x[i, j]) / sum_k exp(x[i, k]).
// x: tensor<256x1024xf32> -> y: tensor<256x1024xf32>, reduced over dimension 1.
func.func @softmax(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %empty = tensor.empty() : tensor<256x1024xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<256x1024xf32>)
                                   outs(%empty : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
