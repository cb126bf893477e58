// Row-wise softmax over 1024 columns: y[i, j] = exp(x[i, j]) / sum_k exp(x[i, k]).
func.func @softmax(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %empty = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<512x1024xf32>)
                                   outs(%empty : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
