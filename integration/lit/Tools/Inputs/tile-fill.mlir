// c = a + 1 (b is ignored), one 32x32 tile per core on two cores: a + b is
// not what it computes, so --reference=add fails and --reference=none passes.
tile.program @fill {
  tile.dram_tensor @a input : !tile.dram<64x32xf32, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<64x32xf32, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<64x32xf32, #tile.interleaved>
  tile.dram_tensor @ones scratch : !tile.dram<32x32xf32, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[1, 0] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.circular_buffer @out cores [0, 0]-[1, 0] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.kernel reader cores [0, 0]-[1, 0] {
    %c1 = arith.constant 1 : index
    %row = tile.core_row
    tile.cb_reserve_back @in, %c1
    %p = tile.cb_write_ptr @in
    tile.noc_read_tile @a[%row] -> %p
    tile.noc_read_barrier
    tile.cb_push_back @in, %c1
  }
  tile.kernel compute cores [0, 0]-[1, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @in, %c1
    tile.acquire_dst
    tile.unpack_tile @in[%c0] -> dst[%c0]
    tile.unary exp dst[%c1]
    tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c1
    tile.pack_tile dst[%c0] -> @out[%c0]
    tile.cb_push_back @out, %c1
    tile.release_dst
    tile.cb_pop_front @in, %c1
  }
  tile.kernel writer cores [0, 0]-[1, 0] {
    %c1 = arith.constant 1 : index
    %row = tile.core_row
    tile.cb_wait_front @out, %c1
    %p = tile.cb_read_ptr @out
    tile.noc_write_tile %p -> @c[%row]
    tile.noc_write_barrier
    tile.cb_pop_front @out, %c1
  }
}
