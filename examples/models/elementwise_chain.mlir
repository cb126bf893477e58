// Fused elementwise chain with row and column broadcasts:
//   y[i, j] = tanh((x[i, j] * r[j] + c[i, 0]) * 0.5) + exp(-x[i, j]).
// x: tensor<512x1024xf32>, r: tensor<1024xf32>, c: tensor<512x1xf32>
//   -> y: tensor<512x1024xf32>.
#map_2d = affine_map<(i, j) -> (i, j)>
#map_row_vec = affine_map<(i, j) -> (j)>
#map_col_vec = affine_map<(i, j) -> (i, 0)>
func.func @elementwise_chain(%x: tensor<512x1024xf32>, %r: tensor<1024xf32>, %c: tensor<512x1xf32>) -> tensor<512x1024xf32> {
  %out = tensor.empty() : tensor<512x1024xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_row_vec, #map_col_vec, #map_2d],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %r, %c : tensor<512x1024xf32>, tensor<1024xf32>, tensor<512x1xf32>)
      outs(%out : tensor<512x1024xf32>) {
  ^bb0(%xv: f32, %rv: f32, %cv: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %m = arith.mulf %xv, %rv : f32
    %a = arith.addf %m, %cv : f32
    %s = arith.mulf %a, %half : f32
    %t = math.tanh %s : f32
    %nx = arith.negf %xv : f32
    %e = math.exp %nx : f32
    %res = arith.addf %t, %e : f32
    linalg.yield %res : f32
  } -> tensor<512x1024xf32>
  return %y : tensor<512x1024xf32>
}
