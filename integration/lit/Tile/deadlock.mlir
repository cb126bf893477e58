// A program in which every unfinished kernel waits for another is stopped
// and reported with what each kernel on each core waits for.
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=short_push 2>&1 | FileCheck %s --check-prefix=PUSH
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=semaphore_cycle 2>&1 | FileCheck %s --check-prefix=SEM

// The reader pushes one tile; the compute kernel waits for two.
// PUSH: deadlock.mlir:[[#@LINE+24]]:5: error: deadlock: all 4 unfinished kernels are blocked
// PUSH-NEXT: tile.cb_wait_front @in, %c2
// PUSH: deadlock.mlir:[[#@LINE+22]]:5: note: compute kernel on core [0, 0] waits in tile.cb_wait_front for 2 tiles of @in (1 available)
// PUSH: note: compute kernel on core [0, 1] waits in tile.cb_wait_front for 2 tiles of @in (1 available)
// PUSH: deadlock.mlir:[[#@LINE+34]]:5: note: writer kernel on core [0, 0] waits in tile.cb_wait_front for 1 tile of @out (0 available)
// PUSH: note: writer kernel on core [0, 1] waits in tile.cb_wait_front for 1 tile of @out (0 available)
tile.program @short_push {
  tile.dram_tensor @a input : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[0, 1] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @out cores [0, 0]-[0, 1] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 1] {
    %c1 = arith.constant 1 : index
    %col = tile.core_col
    tile.cb_reserve_back @in, %c1
    %p = tile.cb_write_ptr @in
    tile.noc_read_tile @a[%col] -> %p
    tile.noc_read_barrier
    tile.cb_push_back @in, %c1
  }
  tile.kernel compute cores [0, 0]-[0, 1] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tile.cb_wait_front @in, %c2
    tile.acquire_dst
    tile.unpack_tile @in[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c1
    tile.pack_tile dst[%c0] -> @out[%c0]
    tile.cb_push_back @out, %c1
    tile.release_dst
    tile.cb_pop_front @in, %c2
  }
  tile.kernel writer cores [0, 0]-[0, 1] {
    %c1 = arith.constant 1 : index
    %col = tile.core_col
    tile.cb_wait_front @out, %c1
    %p = tile.cb_read_ptr @out
    tile.noc_write_tile %p -> @c[%col]
    tile.noc_write_barrier
    tile.cb_pop_front @out, %c1
  }
}

// Each of two cores waits for the other's signal before sending its own.
// SEM: error: deadlock: all 2 unfinished kernels are blocked
// SEM: note: reader kernel on core [0, 0] waits in tile.sem_wait for @go to be 1 (it is 0)
// SEM: note: reader kernel on core [0, 1] waits in tile.sem_wait for @go to be 1 (it is 0)
tile.program @semaphore_cycle {
  tile.semaphore @go cores [0, 0]-[0, 1] init 0
  tile.kernel reader cores [0, 0]-[0, 1] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %col = tile.core_col
    %other = arith.subi %c1, %col : index
    tile.sem_wait @go, %c1
    tile.sem_inc @go core [%c0, %other], %c1
  }
}
