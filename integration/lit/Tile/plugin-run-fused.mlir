// A linear layer with bias and GELU (erf form) fused on the tile chip: the
// bias add and the vector engine's GELU run on the accumulator before the
// output is packed. bf16 operands, f32 bias and result.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// CHECK:      mlp: ran on tile-wormhole-n150
// CHECK:        matrix engine: 4096 tile matmuls at HiFi2
// CHECK:      mlp: check result #0 (256x1024xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#map_2d = affine_map<(i, j) -> (i, j)>
#map_bias = affine_map<(i, j) -> (j)>
func.func @mlp(%x: tensor<256x512xbf16>, %w: tensor<512x1024xbf16>, %b: tensor<1024xf32>) -> tensor<256x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<256x512xbf16>, tensor<512x1024xbf16>)
                      outs(%init : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %out = tensor.empty() : tensor<256x1024xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_bias, #map_2d],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<256x1024xf32>, tensor<1024xf32>)
      outs(%out : tensor<256x1024xf32>) {
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
  } -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
