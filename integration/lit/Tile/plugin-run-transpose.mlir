// A batch of transposes on the tile chip: output tile (r, c) of matrix b
// reads input tile (c, r) of matrix b and transposes it while unpacking
// (the chip's transpose_wh_tile), exactly.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg0 input {host_shape = array<i64: 4, 256, 64>} : !tile.dram<1024x64xf32, #tile.interleaved>
// LOWER: tile.dram_tensor @arg1 output {host_shape = array<i64: 4, 64, 256>} : !tile.dram<256x256xf32, #tile.interleaved>
// LOWER: tile.kernel reader
// LOWER: %[[B:.*]] = arith.divui %{{.*}}, %c16
// LOWER: tile.noc_read_tile @arg0
// LOWER: tile.kernel compute
// LOWER: tile.unpack_tile @in0[%c0] -> dst[%c0] transpose

// CHECK: tr: ran on tile-wormhole-n150
// CHECK:   bound: dram
// CHECK: tr: check result #0 (4x64x256xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
func.func @tr(%k: tensor<4x256x64xf32>) -> tensor<4x64x256xf32> {
  %e = tensor.empty() : tensor<4x64x256xf32>
  %t = linalg.transpose ins(%k : tensor<4x256x64xf32>) outs(%e : tensor<4x64x256xf32>) permutation = [0, 2, 1]
  return %t : tensor<4x64x256xf32>
}
