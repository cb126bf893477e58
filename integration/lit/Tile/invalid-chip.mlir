// Programs that do not fit the chip they are compiled for: the description
// attached to the module (n150: 8x8 cores, 1,499,136 B of L1, 32x32 tiles,
// Dst of 8 f32 / 16 bf16 tiles, double-buffered, 32 circular buffers).
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=tile-wormhole-n150 --verify-diagnostics

tile.program @dst_index_f32 {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    tile.acquire_dst
    // expected-error @+1 {{Dst index 4 is beyond the accumulator: chip 'tile-wormhole-n150' gives a compute kernel 4 f32 tiles (half of Dst, double-buffered)}}
    tile.matmul_tiles @a[%c0], @a[%c0] -> dst[%c4]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

// A bf16 accumulator holds twice as many tiles: index 7 is fine, 8 is not.
tile.program @dst_index_bf16 {
  tile.kernel compute cores [0, 0]-[0, 0] attributes {dst_type = bf16} {
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    tile.acquire_dst
    tile.unary exp dst[%c7]
    // expected-error @+1 {{Dst index 8 is beyond the accumulator: chip 'tile-wormhole-n150' gives a compute kernel 8 bf16 tiles}}
    tile.binary_dst add dst[%c7], dst[%c7] -> dst[%c8]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

// 2 x 256 tiles of 2048 B, a semaphore and 128 tiles of 4096 B: the third
// buffer overflows the 1,499,136 B of L1 on every core of its range; the
// first of them, [2, 0], is reported with everything on it.
tile.program @l1_overflow {
  tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<256x!tile.tile<32x32xbf16>>
  tile.semaphore @ready cores [0, 0]-[7, 7] init 0
  tile.circular_buffer @in1 cores [0, 0]-[7, 7] : !tile.cb<256x!tile.tile<32x32xbf16>>
  // expected-error @+1 {{'tile.circular_buffer' op does not fit in L1 of core [2, 0]: the buffers of the core need 1572880 bytes, more than the 1499136 bytes of L1 of chip 'tile-wormhole-n150' (@in0 256 x 2048 B = 524288 B, @ready semaphore 16 B, @in1 256 x 2048 B = 524288 B, @acc 128 x 4096 B = 524288 B)}}
  tile.circular_buffer @acc cores [2, 0]-[7, 7] : !tile.cb<128x!tile.tile<32x32xf32>>
}

// -----

// @b sits above @a on both cores, leaving a gap on core [0, 1] so that it has
// one address; @c then overflows core [0, 1].
tile.program @l1_gap {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<50x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b cores [0, 0]-[0, 1] : !tile.cb<50x!tile.tile<32x32xbf16>>
  // expected-error @+1 {{does not fit in L1 of core [0, 1]: the buffers of the core need 1638400 bytes, more than the 1499136 bytes of L1 of chip 'tile-wormhole-n150' (@b 50 x 2048 B = 102400 B, @c 700 x 2048 B = 1433600 B); 102400 of those bytes are gaps}}
  tile.circular_buffer @c cores [0, 1]-[0, 1] : !tile.cb<700x!tile.tile<32x32xbf16>>
}

// -----

tile.program @outside_grid {
  // expected-error @+1 {{'tile.kernel' op uses cores [0, 0]-[8, 7], outside the 8x8 grid of chip 'tile-wormhole-n150'}}
  tile.kernel reader cores [0, 0]-[8, 7] {
  }
}

// -----

tile.program @tile_shape {
  // expected-error @+1 {{uses 16x32 tiles of 16x16 faces; chip 'tile-wormhole-n150' has 32x32 tiles of 16x16 faces}}
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<16x32xbf16>>
}

// -----

tile.program @fidelity {
  // expected-error @+1 {{fidelity 'HiFi5' is not one of chip 'tile-wormhole-n150': LoFi, HiFi2, HiFi3, HiFi4}}
  tile.kernel compute cores [0, 0]-[0, 0] attributes {fidelity = "HiFi5"} {
  }
}

// -----

tile.program @f32_matmul_lofi {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xf32>>
  tile.kernel compute cores [0, 0]-[0, 0] attributes {fidelity = "LoFi"} {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{has f32 operands, which chip 'tile-wormhole-n150' multiplies at HiFi4 only, not at the kernel's fidelity 'LoFi'}}
    tile.matmul_tiles @a[%c0], @a[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

// 33 buffers of one tile on core [0, 0]; the chip has 32 per core.
tile.program @too_many_buffers {
  tile.circular_buffer @b0 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b1 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b2 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b3 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b4 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b5 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b6 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b7 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b8 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b9 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b10 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b11 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b12 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b13 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b14 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b15 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b16 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b17 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b18 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b19 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b20 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b21 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b22 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b23 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b24 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b25 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b26 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b27 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b28 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b29 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b30 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b31 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  // expected-error @+1 {{is circular buffer 33 of core [0, 0]; chip 'tile-wormhole-n150' has at most 32 per core}}
  tile.circular_buffer @b32 cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
}
