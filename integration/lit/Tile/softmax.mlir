// Softmax of each row of a 2048x512 bf16 tensor: 64 rows of 16 tiles, one
// per core of the 8x8 grid. The compute kernel finds each row's maximum
// (row reductions into column 0 of a Dst tile), exponentiates x - max
// (the maximum broadcast along the row) into an f32 buffer, sums the
// exponentials, takes the reciprocal on the vector engine and scales.
// RUN: strata-tile-run %s --target=tile-wormhole-n150 --reference=softmax | FileCheck %s

// CHECK: program @softmax on tile-wormhole-n150: 192 kernel instances
// CHECK: output @y (2048x512 bf16) vs softmax reference: max abs error {{.*}}, relative L2 error {{.*}} (tolerance 2.000000e-02): PASS
// CHECK: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK: matrix engine: no tile matmuls
// CHECK: DRAM: 4.19 MB moved

tile.program @softmax {
  tile.dram_tensor @x input : !tile.dram<2048x512xbf16, #tile.interleaved>
  tile.dram_tensor @y output : !tile.dram<2048x512xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[7, 7] : !tile.cb<16x!tile.tile<32x32xbf16>>
  tile.circular_buffer @max cores [0, 0]-[7, 7] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.circular_buffer @exp cores [0, 0]-[7, 7] : !tile.cb<16x!tile.tile<32x32xf32>>
  tile.circular_buffer @recip cores [0, 0]-[7, 7] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.circular_buffer @out cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>

  // Core [r, c] owns tile row 8r + c: pages (8r + c) * 16 + t.
  tile.kernel reader cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tile_bytes = arith.constant 2048 : index
    %row = tile.core_row
    %col = tile.core_col
    %r8 = arith.muli %row, %c8 : index
    %tile_row = arith.addi %r8, %col : index
    %first = arith.muli %tile_row, %c16 : index
    tile.cb_reserve_back @in, %c16
    %p = tile.cb_write_ptr @in
    scf.for %t = %c0 to %c16 step %c1 {
      %page = arith.addi %first, %t : index
      %offset = arith.muli %t, %tile_bytes : index
      %addr = arith.addi %p, %offset : index
      tile.noc_read_tile @x[%page] -> %addr
    }
    tile.noc_read_barrier
    tile.cb_push_back @in, %c16
  }

  tile.kernel compute cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    tile.cb_wait_front @in, %c16

    // m = max over the row.
    tile.acquire_dst
    scf.for %t = %c0 to %c16 step %c1 {
      tile.reduce max row @in[%t] -> dst[%c0]
    }
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @max, %c1
    tile.pack_tile dst[%c0] -> @max[%c0]
    tile.cb_push_back @max, %c1
    tile.release_dst

    // e = exp(x - m), kept in f32.
    tile.cb_wait_front @max, %c1
    scf.for %t = %c0 to %c16 step %c1 {
      tile.acquire_dst
      tile.binary sub @in[%t], @max[%c0] -> dst[%c0] bcast col
      tile.unary exp dst[%c0]
      tile.commit_dst
      tile.wait_dst
      tile.cb_reserve_back @exp, %c1
      tile.pack_tile dst[%c0] -> @exp[%c0]
      tile.cb_push_back @exp, %c1
      tile.release_dst
    }
    tile.cb_pop_front @in, %c16
    tile.cb_pop_front @max, %c1

    // s = 1 / sum(e).
    tile.cb_wait_front @exp, %c16
    tile.acquire_dst
    scf.for %t = %c0 to %c16 step %c1 {
      tile.reduce sum row @exp[%t] -> dst[%c0]
    }
    tile.unary recip dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @recip, %c1
    tile.pack_tile dst[%c0] -> @recip[%c0]
    tile.cb_push_back @recip, %c1
    tile.release_dst

    // y = e * s.
    tile.cb_wait_front @recip, %c1
    scf.for %t = %c0 to %c16 step %c1 {
      tile.acquire_dst
      tile.binary mul @exp[%t], @recip[%c0] -> dst[%c0] bcast col
      tile.commit_dst
      tile.wait_dst
      tile.cb_reserve_back @out, %c1
      tile.pack_tile dst[%c0] -> @out[%c0]
      tile.cb_push_back @out, %c1
      tile.release_dst
    }
    tile.cb_pop_front @exp, %c16
    tile.cb_pop_front @recip, %c1
  }

  tile.kernel writer cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %row = tile.core_row
    %col = tile.core_col
    %r8 = arith.muli %row, %c8 : index
    %tile_row = arith.addi %r8, %col : index
    %first = arith.muli %tile_row, %c16 : index
    scf.for %t = %c0 to %c16 step %c1 {
      %page = arith.addi %first, %t : index
      tile.cb_wait_front @out, %c1
      %p = tile.cb_read_ptr @out
      tile.noc_write_tile %p -> @y[%page]
      tile.noc_write_barrier
      tile.cb_pop_front @out, %c1
    }
  }
}
