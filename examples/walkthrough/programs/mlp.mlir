// A linear layer with bias and exact GELU: y = gelu(x * W + b), bf16 inputs,
// f32 accumulation and output; gelu(t) = 0.5 t (1 + erf(t / sqrt(2))).
#map_2d = affine_map<(i, j) -> (i, j)>
#map_bias = affine_map<(i, j) -> (j)>
func.func @mlp(%x: tensor<512x1024xbf16>, %w: tensor<1024x1024xbf16>, %b: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<512x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<512x1024xbf16>, tensor<1024x1024xbf16>)
                      outs(%init : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %out = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_bias, #map_2d],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<512x1024xf32>, tensor<1024xf32>)
      outs(%out : tensor<512x1024xf32>) {
  ^bb0(%acc: f32, %bias: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %inv_sqrt2 = arith.constant 0.707106781 : f32
    %t = arith.addf %acc, %bias : f32
    %s = arith.mulf %t, %inv_sqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %h = arith.mulf %t, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
