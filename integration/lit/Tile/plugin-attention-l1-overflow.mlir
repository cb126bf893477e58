// An attention whose smallest blocks do not fit L1 (head dimension 8192
// f32: one tile-row of Q alone is 1 MB) is an error naming every buffer.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: 'linalg.batch_matmul' does not fit in scratchpad 'l1': its smallest blocks (one tile-row of queries, a step of one key tile) need 10506240 bytes per 'core' (q 256 x f32 tiles = 1048576 B, qs 256 x f32 tiles = 1048576 B, k 512 x f32 tiles = 2097152 B, kt 256 x f32 tiles = 1048576 B, v 512 x f32 tiles = 2097152 B, s 1 x f32 tiles = 4096 B, p 1 x f32 tiles = 4096 B, m 1 x f32 tiles = 4096 B, l 1 x f32 tiles = 4096 B, alpha 1 x f32 tiles = 4096 B, o 256 x f32 tiles = 1048576 B, out 512 x f32 tiles = 2097152 B), more than the 1499136 bytes of 'l1'
#map = affine_map<(b, i, j) -> (b, i, j)>
func.func @attn(%q: tensor<2x64x8192xf32>, %k: tensor<2x256x8192xf32>, %v: tensor<2x256x8192xf32>) -> tensor<2x64x8192xf32> {
  %zero = arith.constant 0.0 : f32
  %kt_empty = tensor.empty() : tensor<2x8192x256xf32>
  %kt = linalg.transpose ins(%k : tensor<2x256x8192xf32>) outs(%kt_empty : tensor<2x8192x256xf32>) permutation = [0, 2, 1]
  %s_empty = tensor.empty() : tensor<2x64x256xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x64x8192xf32>, tensor<2x8192x256xf32>)
                           outs(%s_init : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %scaled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x64x256xf32>) outs(%s_empty : tensor<2x64x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %r = arith.mulf %x, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x64x256xf32>
  %p_empty = tensor.empty() : tensor<2x64x256xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x64x256xf32>) outs(%p_empty : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %o_empty = tensor.empty() : tensor<2x64x8192xf32>
  %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<2x64x8192xf32>) -> tensor<2x64x8192xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x64x256xf32>, tensor<2x256x8192xf32>)
                             outs(%o_init : tensor<2x64x8192xf32>) -> tensor<2x64x8192xf32>
  return %out : tensor<2x64x8192xf32>
}
