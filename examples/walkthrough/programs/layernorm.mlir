// Layer normalization over the last dimension:
//   y = (x - mean(x)) * rsqrt(var(x) + 1e-5) * gamma + beta.
// x: tensor<128x768xf32>, gamma: tensor<768xf32>, beta: tensor<768xf32>
//   -> y: tensor<128x768xf32>.
#map_2d = affine_map<(i, j) -> (i, j)>
#map_row = affine_map<(i, j) -> (i)>
#map_col = affine_map<(i, j) -> (j)>
func.func @layernorm(%x: tensor<128x768xf32>, %gamma: tensor<768xf32>, %beta: tensor<768xf32>) -> tensor<128x768xf32> {
  %zero = arith.constant 0.0 : f32
  %row_empty = tensor.empty() : tensor<128xf32>
  %row_init = linalg.fill ins(%zero : f32) outs(%row_empty : tensor<128xf32>) -> tensor<128xf32>

  // sum_j x[i, j]
  %sum = linalg.generic {indexing_maps = [#map_2d, #map_row],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<128x768xf32>) outs(%row_init : tensor<128xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>

  // mean = sum / 768
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]}
      ins(%sum : tensor<128xf32>) outs(%row_empty : tensor<128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 768.0 : f32
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<128xf32>

  // sum_j (x[i, j] - mean[i])^2
  %sqsum = linalg.generic {indexing_maps = [#map_2d, #map_row, #map_row],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<128x768xf32>, tensor<128xf32>) outs(%row_init : tensor<128xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %d2 : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>

  // rstd = rsqrt(sqsum / 768 + eps)
  %rstd = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                          iterator_types = ["parallel"]}
      ins(%sqsum : tensor<128xf32>) outs(%row_empty : tensor<128xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 768.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %s, %n : f32
    %ve = arith.addf %var, %eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<128xf32>

  // y = (x - mean) * rstd * gamma + beta
  %out = tensor.empty() : tensor<128x768xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_row, #map_row, #map_col, #map_col, #map_2d],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %gamma, %beta
          : tensor<128x768xf32>, tensor<128xf32>, tensor<128xf32>, tensor<768xf32>, tensor<768xf32>)
      outs(%out : tensor<128x768xf32>) {
  ^bb0(%v: f32, %m: f32, %rs: f32, %g: f32, %bt: f32, %o: f32):
    %d = arith.subf %v, %m : f32
    %n = arith.mulf %d, %rs : f32
    %sc = arith.mulf %n, %g : f32
    %r = arith.addf %sc, %bt : f32
    linalg.yield %r : f32
  } -> tensor<128x768xf32>
  return %y : tensor<128x768xf32>
}
