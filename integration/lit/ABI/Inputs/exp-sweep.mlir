// y = exp(x) elementwise over 4096 values.
#id = affine_map<(i) -> (i)>
func.func @exp(%x: tensor<4096xf32>) -> tensor<4096xf32> {
  %e = tensor.empty() : tensor<4096xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4096xf32>) outs(%e : tensor<4096xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<4096xf32>
  return %y : tensor<4096xf32>
}
