// A program whose buffers do not fit in a core's L1 is rejected before it
// runs, with the size of every buffer on the core, the need and the
// capacity; the same program fits the larger L1 of a Blackhole-class chip.
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 2>&1 | FileCheck %s
// RUN: strata-tile-run %s --target=tile-blackhole-p150 | FileCheck %s --check-prefix=FITS

// CHECK: l1-overflow.mlir:[[#@LINE+7]]:3: error: 'tile.circular_buffer' op does not fit in L1 of core [0, 0]: the buffers of the core need 1507344 bytes, more than the 1499136 bytes of L1 of chip 'tile-wormhole-n150' (@in 256 x 2048 B = 524288 B, @ready semaphore 16 B, @acc 240 x 4096 B = 983040 B)
// CHECK-NEXT: tile.circular_buffer @acc
// CHECK-NOT: program @
// FITS: program @big on tile-blackhole-p150: 1 kernel instances
tile.program @big {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<256x!tile.tile<32x32xbf16>>
  tile.semaphore @ready cores [0, 0]-[0, 0] init 0
  tile.circular_buffer @acc cores [0, 0]-[0, 0] : !tile.cb<240x!tile.tile<32x32xf32>>
  tile.kernel reader cores [0, 0]-[0, 0] {
  }
}
