// A bf16 attention as one program: Q, K, V and P are bf16 matrix-engine
// operands at HiFi2, the scores, row maximum, row sum and output rows f32
// in L1 and Dst. The check is against the host reference, which computes
// in f32 (strata-widen-floats) and rounds the result to bf16 once.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER:      tile.program @attn attributes {attention = {bound = "compute"
// LOWER:        tile.circular_buffer @k cores [0, 0]-[{{[0-9]}}, {{[0-9]}}] : !tile.cb<{{[0-9]+}}x!tile.tile<32x32xbf16>>
// LOWER:        tile.circular_buffer @s cores {{.*}} : !tile.cb<{{[0-9]+}}x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @p cores {{.*}} : !tile.cb<{{[0-9]+}}x!tile.tile<32x32xbf16>>
// LOWER:        tile.kernel compute {{.*}} attributes {dst_type = f32, fidelity = "HiFi2"}

// CHECK:      attn: ran on tile-wormhole-n150
// CHECK:      attn: check result #0 (2x64x64xbf16): relative error {{.*}} (tolerance 2.0e-02) PASS
#map = affine_map<(b, i, j) -> (b, i, j)>
func.func @attn(%q: tensor<2x64x64xbf16>, %k: tensor<2x128x64xbf16>, %v: tensor<2x128x64xbf16>) -> tensor<2x64x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %kt_empty = tensor.empty() : tensor<2x64x128xbf16>
  %kt = linalg.transpose ins(%k : tensor<2x128x64xbf16>) outs(%kt_empty : tensor<2x64x128xbf16>) permutation = [0, 2, 1]
  %s_empty = tensor.empty() : tensor<2x64x128xbf16>
  %s_init = linalg.fill ins(%zero : bf16) outs(%s_empty : tensor<2x64x128xbf16>) -> tensor<2x64x128xbf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x64x64xbf16>, tensor<2x64x128xbf16>)
                           outs(%s_init : tensor<2x64x128xbf16>) -> tensor<2x64x128xbf16>
  %scaled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x64x128xbf16>) outs(%s_empty : tensor<2x64x128xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %scale = arith.constant 0.125 : bf16
    %r = arith.mulf %x, %scale : bf16
    linalg.yield %r : bf16
  } -> tensor<2x64x128xbf16>
  %p_empty = tensor.empty() : tensor<2x64x128xbf16>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x64x128xbf16>) outs(%p_empty : tensor<2x64x128xbf16>) -> tensor<2x64x128xbf16>
  %o_empty = tensor.empty() : tensor<2x64x64xbf16>
  %o_init = linalg.fill ins(%zero : bf16) outs(%o_empty : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x64x128xbf16>, tensor<2x128x64xbf16>)
                             outs(%o_init : tensor<2x64x64xbf16>) -> tensor<2x64x64xbf16>
  return %out : tensor<2x64x64xbf16>
}
