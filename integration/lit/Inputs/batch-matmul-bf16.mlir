// C[b] = A[b] * B[b] with bf16 operands, accumulated in f32, the result
// rounded to bf16; B is one matrix broadcast over the batch in @shared_b.
func.func @batch_matmul_bf16(%a: tensor<8x256x512xbf16>, %b: tensor<8x512x384xbf16>) -> tensor<8x256x384xbf16> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x256x384xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256x384xf32>) -> tensor<8x256x384xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<8x256x512xbf16>, tensor<8x512x384xbf16>)
                           outs(%init : tensor<8x256x384xf32>) -> tensor<8x256x384xf32>
  %o = tensor.empty() : tensor<8x256x384xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<8x256x384xf32>) outs(%o : tensor<8x256x384xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x256x384xbf16>
  return %r : tensor<8x256x384xbf16>
}

func.func @shared_b_bf16(%a: tensor<4x128x256xbf16>, %b: tensor<256x128xbf16>) -> tensor<4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>,
                                        affine_map<(b, i, j, k) -> (k, j)>,
                                        affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x128x256xbf16>, tensor<256x128xbf16>) outs(%init : tensor<4x128x128xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %c : tensor<4x128x128xf32>
}

// Attention's scores Q K^T with a head dimension of 64: k is one wgmma k
// tile, so the warps' mma.sync in k tiles of 16 (two pipeline iterations).
func.func @scores_bf16(%q: tensor<8x256x64xbf16>, %kt: tensor<8x64x256xbf16>) -> tensor<8x256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x256x64xbf16>, tensor<8x64x256xbf16>)
                           outs(%init : tensor<8x256x256xf32>) -> tensor<8x256x256xf32>
  return %s : tensor<8x256x256xf32>
}
