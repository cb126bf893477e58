// Misuse that only shows when the program runs is an error at the op that
// names the kernel and its core.
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=no_barrier 2>&1 | FileCheck %s --check-prefix=BARRIER
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=outside_l1 2>&1 | FileCheck %s --check-prefix=L1
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=not_waited 2>&1 | FileCheck %s --check-prefix=WAITED
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=not_reserved 2>&1 | FileCheck %s --check-prefix=RESERVED
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=bad_page 2>&1 | FileCheck %s --check-prefix=PAGE
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=wrap 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not strata-tile-run %s --target=tile-blackhole-p150 --program=dst_protocol 2>&1 | FileCheck %s --check-prefix=DST

// BARRIER: error: reader kernel on core [0, 0]: pushes tiles to @in while 1 NoC reads of this kernel may still be in flight: wait for them with tile.noc_read_barrier
tile.program @no_barrier {
  tile.dram_tensor @a input : !tile.dram<32x32xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_reserve_back @in, %c1
    %p = tile.cb_write_ptr @in
    tile.noc_read_tile @a[%c0] -> %p
    tile.cb_push_back @in, %c1
  }
}

// L1: error: reader kernel on core [0, 0]: L1 bytes [1499136, 1501184) are outside the 1499136 bytes of L1
tile.program @outside_l1 {
  tile.dram_tensor @a input : !tile.dram<32x32xbf16, #tile.interleaved>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %end = arith.constant 1499136 : index
    tile.noc_read_tile @a[%c0] -> %end
  }
}

// WAITED: error: compute kernel on core [0, 0]: reads tile 1 of @in but only 1 tiles were waited for (tile.cb_wait_front)
tile.program @not_waited {
  tile.dram_tensor @a input : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c2048 = arith.constant 2048 : index
    tile.cb_reserve_back @in, %c2
    %p = tile.cb_write_ptr @in
    %q = arith.addi %p, %c2048 : index
    tile.noc_read_tile @a[%c0] -> %p
    tile.noc_read_tile @a[%c1] -> %q
    tile.noc_read_barrier
    tile.cb_push_back @in, %c2
  }
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @in, %c1
    tile.acquire_dst
    tile.binary add @in[%c0], @in[%c1] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// RESERVED: error: compute kernel on core [0, 0]: packs into slot 1 of @out but only 1 slots are reserved (tile.cb_reserve_back)
tile.program @not_reserved {
  tile.circular_buffer @out cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.acquire_dst
    tile.unary relu dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c1
    tile.pack_tile dst[%c0] -> @out[%c1]
    tile.release_dst
  }
}

// PAGE: error: writer kernel on core [0, 1]: page 2 of @c is outside its 2 pages
tile.program @bad_page {
  tile.dram_tensor @c output : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.kernel writer cores [0, 0]-[0, 1] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %col = tile.core_col
    %page = arith.addi %col, %col : index
    tile.noc_write_tile %c0 -> @c[%page]
    tile.noc_write_barrier
  }
}

// WRAP: error: reader kernel on core [0, 0]: reserves 2 tiles at slot 2 of @in, which holds 3: the region would run past the buffer's end
tile.program @wrap {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<3x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      tile.cb_reserve_back @in, %c2
      tile.cb_push_back @in, %c2
    }
  }
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c2 = arith.constant 2 : index
    tile.cb_wait_front @in, %c2
    tile.cb_pop_front @in, %c2
  }
}

// Blackhole's accumulator has the same 8 f32 tiles; a release without a
// wait is caught at run time when it depends on a loop.
// DST: error: compute kernel on core [0, 0]: releases Dst, which is committed but not waited for (tile.wait_dst)
tile.program @dst_protocol {
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %i = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        tile.acquire_dst
        tile.commit_dst
      } else {
        tile.release_dst
      }
    }
  }
}
