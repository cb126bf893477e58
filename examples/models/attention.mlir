// Scaled dot-product attention: out = softmax(Q * K^T / sqrt(64)) * V.
// Q, K, V: tensor<8x256x64xf32> (batch*heads, seq, head_dim)
//   -> out: tensor<8x256x64xf32>; scores are tensor<8x256x256xf32>.
#map_3d = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<8x256x64xf32>, %k: tensor<8x256x64xf32>, %v: tensor<8x256x64xf32>) -> tensor<8x256x64xf32> {
  %zero = arith.constant 0.0 : f32

  // K^T: [8, 64, 256]
  %kt_empty = tensor.empty() : tensor<8x64x256xf32>
  %kt = linalg.transpose ins(%k : tensor<8x256x64xf32>) outs(%kt_empty : tensor<8x64x256xf32>)
                         permutation = [0, 2, 1]

  // S = Q * K^T: [8, 256, 256]
  %s_empty = tensor.empty() : tensor<8x256x256xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x256x64xf32>, tensor<8x64x256xf32>)
                           outs(%s_init : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>

  // S / sqrt(64)
  %scaled = linalg.generic {indexing_maps = [#map_3d, #map_3d],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<8x256x256xf32>) outs(%s_empty : tensor<8x256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %r = arith.mulf %x, %scale : f32
    linalg.yield %r : f32
  } -> tensor<8x256x256xf32>

  // P = softmax over the key dimension
  %p_empty = tensor.empty() : tensor<8x256x256xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<8x256x256xf32>)
                                   outs(%p_empty : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>

  // out = P * V: [8, 256, 64]
  %o_empty = tensor.empty() : tensor<8x256x64xf32>
  %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<8x256x256xf32>, tensor<8x256x64xf32>)
                             outs(%o_init : tensor<8x256x64xf32>) -> tensor<8x256x64xf32>
  return %out : tensor<8x256x64xf32>
}
