// Scaled dot-product attention, S = 1024, d = 64, two heads, bf16 operands:
//   out = softmax(Q K^T / sqrt(64)) V, scores and softmax in f32, P rounded
//   to bf16 for the second product, f32 output.
#map_3d = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<2x1024x64xbf16>, %k: tensor<2x1024x64xbf16>, %v: tensor<2x1024x64xbf16>) -> tensor<2x1024x64xf32> {
  %zero = arith.constant 0.0 : f32
  %kt_empty = tensor.empty() : tensor<2x64x1024xbf16>
  %kt = linalg.transpose ins(%k : tensor<2x1024x64xbf16>) outs(%kt_empty : tensor<2x64x1024xbf16>)
                         permutation = [0, 2, 1]
  %s_empty = tensor.empty() : tensor<2x1024x1024xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x1024x64xbf16>, tensor<2x64x1024xbf16>)
                           outs(%s_init : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %scaled = linalg.generic {indexing_maps = [#map_3d, #map_3d],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x1024x1024xf32>) outs(%s_empty : tensor<2x1024x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %r = arith.mulf %x, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x1024x1024xf32>
  %p_empty = tensor.empty() : tensor<2x1024x1024xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x1024x1024xf32>)
                                   outs(%p_empty : tensor<2x1024x1024xf32>) -> tensor<2x1024x1024xf32>
  %pb_empty = tensor.empty() : tensor<2x1024x1024xbf16>
  %pb = linalg.generic {indexing_maps = [#map_3d, #map_3d],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p : tensor<2x1024x1024xf32>) outs(%pb_empty : tensor<2x1024x1024xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %r = arith.truncf %x : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x1024x1024xbf16>
  %o_empty = tensor.empty() : tensor<2x1024x64xf32>
  %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<2x1024x64xf32>) -> tensor<2x1024x64xf32>
  %out = linalg.batch_matmul ins(%pb, %v : tensor<2x1024x1024xbf16>, tensor<2x1024x64xbf16>)
                             outs(%o_init : tensor<2x1024x64xf32>) -> tensor<2x1024x64xf32>
  return %out : tensor<2x1024x64xf32>
}
