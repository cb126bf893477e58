// A softmax over the last dimension of a 3-D tensor (attention's scores) is
// a row program over the stacked matrices: 4 x 64 rows of 256, each core
// keeping its tile-rows in L1.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg0 input {host_shape = array<i64: 4, 64, 256>} : !tile.dram<256x256xf32, #tile.interleaved>
// LOWER: tile.reduce max row
// LOWER: tile.reduce sum row

// CHECK:      softmax3: ran on tile-wormhole-n150
// CHECK:      softmax3: check result #0 (4x64x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
func.func @softmax3(%x: tensor<4x64x256xf32>) -> tensor<4x64x256xf32> {
  %e = tensor.empty() : tensor<4x64x256xf32>
  %s = linalg.softmax dimension(2) ins(%x : tensor<4x64x256xf32>) outs(%e : tensor<4x64x256xf32>) -> tensor<4x64x256xf32>
  return %s : tensor<4x64x256xf32>
}
