// A matmul epilogue may read the accumulator more than once: GELU in its
// tanh form on the product (the accumulator read four times, never
// copied: binary ops write a free slot and the in-place ops come at its
// last read), and x / (1 + exp(-x)) on it (the accumulator copied with
// max(x, x) before the in-place neg, since it cannot be unpacked again).
// bf16 operands, f32 result.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER-LABEL: tile.program @mlp_gelu_tanh
// LOWER:      tile.matmul_tiles
// LOWER:      tile.binary_dst mul dst{{\[}}[[ACC:%[0-9]+]]], dst{{\[}}[[ACC]]] -> dst{{\[}}[[T:%[0-9]+]]]
// LOWER-NEXT: tile.binary_dst mul dst{{\[}}[[T]]], dst{{\[}}[[ACC]]] -> dst{{\[}}[[T]]]
// LOWER-NEXT: tile.unary_scalar mul dst{{\[}}[[T]]], 4.471500e-02
// LOWER-NEXT: tile.binary_dst add dst{{\[}}[[ACC]]], dst{{\[}}[[T]]] -> dst{{\[}}[[T]]]
// LOWER-NEXT: tile.unary_scalar mul dst{{\[}}[[T]]], 0.797884583
// LOWER-NEXT: tile.unary tanh dst{{\[}}[[T]]]
// LOWER-NEXT: tile.unary_scalar add dst{{\[}}[[T]]], 1.000000e+00
// LOWER-NEXT: tile.unary_scalar mul dst{{\[}}[[ACC]]], 5.000000e-01
// LOWER-NEXT: tile.binary_dst mul dst{{\[}}[[ACC]]], dst{{\[}}[[T]]] -> dst{{\[}}[[ACC]]]

// LOWER-LABEL: tile.program @mlp_silu
// LOWER:      tile.matmul_tiles
// LOWER:      tile.binary_dst max dst{{\[}}[[ACC:%[0-9]+]]], dst{{\[}}[[ACC]]] -> dst{{\[}}[[T:%[0-9]+]]]
// LOWER-NEXT: tile.unary neg dst{{\[}}[[T]]]
// LOWER-NEXT: tile.unary exp dst{{\[}}[[T]]]
// LOWER-NEXT: tile.unary_scalar add dst{{\[}}[[T]]], 1.000000e+00
// LOWER-NEXT: tile.unary recip dst{{\[}}[[T]]]
// LOWER-NEXT: tile.binary_dst mul dst{{\[}}[[ACC]]], dst{{\[}}[[T]]] -> dst{{\[}}[[ACC]]]

// CHECK:      mlp_gelu_tanh: ran on tile-wormhole-n150
// CHECK:        matrix engine: 256 tile matmuls at HiFi2
// CHECK:      mlp_gelu_tanh: check result #0 (128x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK:      mlp_silu: ran on tile-wormhole-n150
// CHECK:      mlp_silu: check result #0 (128x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#map_2d = affine_map<(i, j) -> (i, j)>
func.func @mlp_gelu_tanh(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>)
                      outs(%init : tensor<128x256xf32>) -> tensor<128x256xf32>
  %out = tensor.empty() : tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_2d], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%out : tensor<128x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %c = arith.constant 0.044715 : f32
    %k = arith.constant 0.7978845608 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %x2 = arith.mulf %v, %v : f32
    %x3 = arith.mulf %x2, %v : f32
    %a = arith.mulf %x3, %c : f32
    %b = arith.addf %v, %a : f32
    %s = arith.mulf %b, %k : f32
    %t = math.tanh %s : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %v, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}
func.func @mlp_silu(%x: tensor<128x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x256xf32>) -> tensor<128x256xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x256xbf16>)
                      outs(%init : tensor<128x256xf32>) -> tensor<128x256xf32>
  %out = tensor.empty() : tensor<128x256xf32>
  %y = linalg.generic {indexing_maps = [#map_2d, #map_2d], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<128x256xf32>) outs(%out : tensor<128x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %v : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %v, %d : f32
    linalg.yield %r : f32
  } -> tensor<128x256xf32>
  return %y : tensor<128x256xf32>
}
