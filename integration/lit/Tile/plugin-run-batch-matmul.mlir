// A batch matmul on the tile chip: a product needs 4 x 8 cores, so two
// products run at once on rows 0-3 and 4-7 (three rounds for six), each
// group multicasting B down its own rows. The tensors stack the products.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg0 input {host_shape = array<i64: 6, 128, 512>} : !tile.dram<768x512xbf16, #tile.interleaved>
// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64: 6, 512, 256>} : !tile.dram<3072x256xbf16, #tile.interleaved>
// LOWER: tile.kernel reader cores [0, 0]-[7, 7]
// LOWER: tile.kernel writer cores [0, 0]-[7, 7]
// LOWER: %[[ROW:.*]] = tile.core_row
// LOWER-NEXT: %[[COL:.*]] = tile.core_col
// LOWER-NEXT: %[[GROUP:.*]] = arith.divui %[[ROW]], %c4
// LOWER-NEXT: %[[FIRST:.*]] = arith.muli %[[GROUP]], %c4
// LOWER: tile.noc_write_multicast {{.*}} -> cores [%[[R1:.*]], %[[COL]]]-[%[[R3:.*]], %[[COL]]]
// LOWER: tile.sem_inc @b_ready core [%[[FIRST]], %[[COL]]], %c1

// CHECK:      bmm: ran on tile-wormhole-n150
// CHECK:        matrix engine: 3072 tile matmuls at HiFi2
// CHECK:      bmm: check result #0 (6x128x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
func.func @bmm(%a: tensor<6x128x512xbf16>, %b: tensor<6x512x256xbf16>) -> tensor<6x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x128x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x128x256xf32>) -> tensor<6x128x256xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<6x128x512xbf16>, tensor<6x512x256xbf16>)
                           outs(%init : tensor<6x128x256xf32>) -> tensor<6x128x256xf32>
  return %c : tensor<6x128x256xf32>
}
