// c = a + b on 512x512 bf16 tensors: 256 tiles, 4 per core of the 8x8 grid.
// The reader streams tiles of a and b into double-buffered circular
// buffers, the compute kernel adds them in Dst and packs the sum, the
// writer stores it.
// RUN: strata-tile-run %s --target=tile-wormhole-n150 --reference=add | FileCheck %s

// CHECK: program @eltwise_add on tile-wormhole-n150: 192 kernel instances
// CHECK: output @c (512x512 bf16) vs add reference: max abs error {{.*}}, relative L2 error {{.*}} (tolerance 2.000000e-02): PASS
// CHECK: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK: matrix engine: no tile matmuls
// CHECK: DRAM: 1.57 MB moved

tile.program @eltwise_add {
  tile.dram_tensor @a input : !tile.dram<512x512xbf16, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<512x512xbf16, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<512x512xbf16, #tile.interleaved>
  tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @in1 cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @out cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>

  tile.kernel reader cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %row = tile.core_row
    %col = tile.core_col
    %r8 = arith.muli %row, %c8 : index
    %core = arith.addi %r8, %col : index
    %first = arith.muli %core, %c4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %page = arith.addi %first, %i : index
      tile.cb_reserve_back @in0, %c1
      tile.cb_reserve_back @in1, %c1
      %pa = tile.cb_write_ptr @in0
      %pb = tile.cb_write_ptr @in1
      tile.noc_read_tile @a[%page] -> %pa
      tile.noc_read_tile @b[%page] -> %pb
      tile.noc_read_barrier
      tile.cb_push_back @in0, %c1
      tile.cb_push_back @in1, %c1
    }
  }

  tile.kernel compute cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      tile.cb_wait_front @in0, %c1
      tile.cb_wait_front @in1, %c1
      tile.acquire_dst
      tile.binary add @in0[%c0], @in1[%c0] -> dst[%c0]
      tile.commit_dst
      tile.cb_pop_front @in0, %c1
      tile.cb_pop_front @in1, %c1
      tile.wait_dst
      tile.cb_reserve_back @out, %c1
      tile.pack_tile dst[%c0] -> @out[%c0]
      tile.cb_push_back @out, %c1
      tile.release_dst
    }
  }

  tile.kernel writer cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %row = tile.core_row
    %col = tile.core_col
    %r8 = arith.muli %row, %c8 : index
    %core = arith.addi %r8, %col : index
    %first = arith.muli %core, %c4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %page = arith.addi %first, %i : index
      tile.cb_wait_front @out, %c1
      %p = tile.cb_read_ptr @out
      tile.noc_write_tile %p -> @c[%page]
      tile.noc_write_barrier
      tile.cb_pop_front @out, %c1
    }
  }
}
