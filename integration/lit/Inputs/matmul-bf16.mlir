// C = A * B with bf16 operands, accumulated in f32, the result rounded to
// bf16 (as cuBLAS does it).
func.func @matmul_bf16(%a: tensor<256x512xbf16>, %b: tensor<512x384xbf16>) -> tensor<256x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xbf16>, tensor<512x384xbf16>)
                     outs(%init : tensor<256x384xf32>) -> tensor<256x384xf32>
  %o = tensor.empty() : tensor<256x384xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<256x384xf32>) outs(%o : tensor<256x384xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}
