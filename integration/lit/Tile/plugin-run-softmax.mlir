// Softmax on the tile chip: S1 decomposes it into row reductions (max,
// sum), elementwise passes with the per-row vectors broadcast along the
// columns, and a reciprocal; the plugin runs them as one row program, each
// core holding whole rows of tiles in L1. Rows that are not whole tiles
// are padded (and cropped); columns must be whole tiles.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED

// CHECK:      softmax_f32: ran on tile-wormhole-n150
// CHECK:        matrix engine: no tile matmuls
// CHECK:      softmax_f32: check result #0 (256x1024xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK:      softmax_bf16: check result #0 (100x64xbf16): relative error {{.*}} (tolerance 2.0e-02) PASS

// LOWERED-LABEL: tile.program @softmax_f32 {
// LOWERED:         tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<64x!tile.tile<32x32xf32>>
// LOWERED:         tile.circular_buffer @r0 cores [0, 0]-[7, 7] : !tile.cb<1x!tile.tile<32x32xf32>>
// LOWERED:         tile.circular_buffer @r1 cores [0, 0]-[7, 7] : !tile.cb<32x!tile.tile<32x32xf32>>
// LOWERED:         tile.kernel compute
// LOWERED:           tile.reduce max row @in0[{{.*}}] -> dst[%c0]
// LOWERED:           tile.binary sub @in0[{{.*}}], @r0[%c0] -> dst[%c0] bcast col
// LOWERED-NEXT:      tile.unary exp dst[%c0]
// LOWERED:           tile.reduce sum row @r1[{{.*}}] -> dst[%c0]
// LOWERED:           tile.unary recip dst[%c0]
// LOWERED:           tile.binary mul @r1[{{.*}}], @r3[%c0] -> dst[%c0] bcast col
// LOWERED:           tile.pack_tile dst[%c0] -> @out[%c0]
func.func @softmax_f32(%x: tensor<256x1024xf32>) -> tensor<256x1024xf32> {
  %empty = tensor.empty() : tensor<256x1024xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<256x1024xf32>)
                                   outs(%empty : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}

func.func @softmax_bf16(%x: tensor<100x64xbf16>) -> tensor<100x64xbf16> {
  %empty = tensor.empty() : tensor<100x64xbf16>
  %y = linalg.softmax dimension(1) ins(%x : tensor<100x64xbf16>)
                                   outs(%empty : tensor<100x64xbf16>) -> tensor<100x64xbf16>
  return %y : tensor<100x64xbf16>
}
