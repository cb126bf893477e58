// Misuse of the tile dialect that needs no chip description.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{face 16x16 does not divide tile 32x24}}
func.func private @face(!tile.tile<32x24xbf16>)

// -----

// expected-error @+1 {{tile element type must be bf16, f32, !tile.bfp8 or !tile.bfp4, got 'i8'}}
func.func private @element(!tile.tile<32x32xi8>)

// -----

// expected-error @+1 {{a block-float tile shares one exponent per 16 elements: 4x2 is not a multiple of 16}}
func.func private @bfp_tile(!tile.tile<4x2x!tile.bfp8, face 2x2>)

// -----

// expected-error @+1 {{a circular buffer holds at least one tile, got 0}}
func.func private @capacity(!tile.cb<0x!tile.tile<32x32xbf16>>)

// -----

// expected-error @+1 {{DRAM tensor shape 48x64 is not a positive multiple of the tile 32x32}}
func.func private @dram_shape(!tile.dram<48x64xbf16, #tile.interleaved>)

// -----

// expected-error @+1 {{height sharding keeps whole rows: shard columns 32 must equal the tensor's 64}}
func.func private @height(!tile.dram<64x64xbf16, #tile.sharded<height, shard = [32, 32]>>)

// -----

// expected-error @+1 {{DRAM layout must be #tile.interleaved or #tile.sharded<...>, got "rows"}}
func.func private @layout(!tile.dram<64x64xbf16, "rows">)

// -----

tile.program @empty_range {
  // expected-error @+1 {{core range [1, 0]-[0, 3] is empty}}
  tile.circular_buffer @a cores [1, 0]-[0, 3] : !tile.cb<2x!tile.tile<32x32xbf16>>
}

// -----

func.func @outside() {
  // expected-error @+1 {{'tile.noc_read_barrier' op must be inside a tile.kernel}}
  tile.noc_read_barrier
  return
}

// -----

tile.program @compute_in_reader {
  tile.kernel reader cores [0, 0]-[0, 0] {
    // expected-error @+1 {{runs on the compute processors: it belongs in a compute kernel, not a reader kernel}}
    tile.acquire_dst
  }
}

// -----

tile.program @noc_in_compute {
  tile.kernel compute cores [0, 0]-[0, 0] {
    // expected-error @+1 {{drives the NoC: it belongs in a reader or writer kernel, not a compute kernel}}
    tile.noc_write_barrier
  }
}

// -----

tile.program @stray_op {
  // expected-error @+1 {{cannot appear at the top of a tile.program}}
  %c0 = arith.constant 0 : index
}

// -----

tile.program @unknown_buffer {
  tile.dram_tensor @a input : !tile.dram<64x64xbf16, #tile.interleaved>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'@a' is not a circular buffer of this program}}
    tile.cb_reserve_back @a, %c1
  }
}

// -----

tile.program @buffer_not_on_core {
  tile.circular_buffer @in cores [0, 0]-[3, 3] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[7, 7] {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{runs on cores [0, 0]-[7, 7] but circular buffer @in exists only on cores [0, 0]-[3, 3]}}
    tile.cb_reserve_back @in, %c1
  }
}

// -----

tile.program @reserve_too_many {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<4x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c5 = arith.constant 5 : index
    // expected-error @+1 {{moves 5 tiles, more than circular buffer @in holds (4): it could never proceed}}
    tile.cb_reserve_back @in, %c5
  }
}

// -----

tile.program @push_too_many {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c3 = arith.constant 3 : index
    // expected-error @+1 {{'tile.cb_push_back' op moves 3 tiles, more than circular buffer @in holds (2)}}
    tile.cb_push_back @in, %c3
  }
}

// -----

tile.program @wait_too_many {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c3 = arith.constant 3 : index
    // expected-error @+1 {{'tile.cb_wait_front' op moves 3 tiles, more than circular buffer @in holds (2)}}
    tile.cb_wait_front @in, %c3
  }
}

// -----

tile.program @negative_count {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c-1 = arith.constant -1 : index
    // expected-error @+1 {{tile count must be >= 0, got -1}}
    tile.cb_pop_front @in, %c-1
  }
}

// -----

tile.program @tile_index_outside {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    tile.acquire_dst
    // expected-error @+1 {{tile index 2 is outside circular buffer @a, which holds 2 tiles}}
    tile.unpack_tile @a[%c2] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @matmul_shapes {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x16xbf16, face 16x16>>
  tile.circular_buffer @b cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{needs A's columns to equal B's rows: @a holds 32x16 tiles, @b holds 32x32 tiles}}
    tile.matmul_tiles @a[%c0], @b[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @matmul_types {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xf32>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{needs operands of one element type: @a holds 'bf16' tiles, @b holds 'f32' tiles}}
    tile.matmul_tiles @a[%c0], @b[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @binary_shapes {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x16xbf16>>
  tile.circular_buffer @b cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{needs tiles of one shape: @a holds 32x16 tiles, @b holds 32x32 tiles}}
    tile.binary add @a[%c0], @b[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @pack_unacquired {
  tile.circular_buffer @out cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_reserve_back @out, %c1
    // expected-error @+1 {{packs from Dst, which is not acquired (tile.acquire_dst)}}
    tile.pack_tile dst[%c0] -> @out[%c0]
  }
}

// -----

tile.program @pack_before_wait {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    tile.unpack_tile @a[%c0] -> dst[%c0]
    tile.commit_dst
    // expected-error @+1 {{packs from Dst, which is committed but not waited for (tile.wait_dst)}}
    tile.pack_tile dst[%c0] -> @a[%c0]
  }
}

// -----

tile.program @pack_in_loop_after_release {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      tile.acquire_dst
      tile.commit_dst
      tile.wait_dst
      tile.release_dst
      // expected-error @+1 {{packs from Dst, which is not acquired (tile.acquire_dst)}}
      tile.pack_tile dst[%c0] -> @a[%c0]
    }
  }
}

// -----

tile.program @math_unacquired {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{writes Dst, which is not acquired (tile.acquire_dst)}}
    tile.unary exp dst[%c0]
  }
}

// -----

tile.program @acquire_twice {
  tile.kernel compute cores [0, 0]-[0, 0] {
    tile.acquire_dst
    // expected-error @+1 {{acquires Dst, which is acquired but not committed (tile.commit_dst); release it first}}
    tile.acquire_dst
  }
}

// -----

tile.program @never_released {
  // expected-error @+1 {{ends with Dst waited for by the pack side until tile.release_dst: every round must end with tile.release_dst}}
  tile.kernel compute cores [0, 0]-[0, 0] {
    tile.acquire_dst
    tile.commit_dst
    tile.wait_dst
  }
}

// -----

tile.program @negative_dst {
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c-1 = arith.constant -1 : index
    tile.acquire_dst
    // expected-error @+1 {{Dst index must be >= 0, got -1}}
    tile.unary exp dst[%c-1]
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @dst_type_on_reader {
  // expected-error @+1 {{'dst_type' is an attribute of compute kernels}}
  tile.kernel reader cores [0, 0]-[0, 0] attributes {dst_type = f32} {
  }
}

// -----

tile.program @two_readers {
  tile.kernel reader cores [0, 0]-[3, 3] {
  }
  tile.kernel compute cores [0, 0]-[7, 7] {
  }
  // expected-error @+1 {{runs a reader kernel on cores [3, 3]-[4, 4], which overlap the cores [0, 0]-[3, 3] of another: a core runs one kernel of each kind}}
  tile.kernel reader cores [3, 3]-[4, 4] {
  }
}

// -----

tile.program @kernel_arguments {
  // expected-error @+1 {{body takes no arguments: a kernel reads its core with tile.core_row and tile.core_col}}
  tile.kernel reader cores [0, 0]-[0, 0] {
  ^bb0(%core: index):
  }
}

// -----

tile.program @dst_type_i32 {
  // expected-error @+1 {{'dst_type' must be f32 or bf16, got 'i32'}}
  tile.kernel compute cores [0, 0]-[0, 0] attributes {dst_type = i32} {
  }
}

// -----

tile.program @bytes_outside_page {
  tile.dram_tensor @a input : !tile.dram<64x64xbf16, #tile.interleaved>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c2000 = arith.constant 2000 : index
    %c100 = arith.constant 100 : index
    // expected-error @+1 {{byte range must lie inside one page of @a (2048 bytes)}}
    tile.noc_read_bytes @a[%c0] offset %c2000 size %c100 -> %c0
  }
}

// -----

tile.program @not_a_tensor {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel writer cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'@a' is not a DRAM tensor of this program}}
    tile.noc_write_tile %c0 -> @a[%c0]
  }
}

// -----

tile.program @not_a_semaphore {
  tile.kernel writer cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'@s' is not a semaphore of this program}}
    tile.sem_wait @s, %c0
  }
}

// -----

tile.program @semaphore_not_on_core {
  tile.semaphore @s cores [0, 0]-[0, 0] init 0
  tile.kernel writer cores [0, 0]-[0, 1] {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{runs on cores [0, 0]-[0, 1] but semaphore @s exists only on cores [0, 0]-[0, 0]}}
    tile.sem_set @s, %c0
  }
}

// -----

tile.program @transpose_rectangle {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<16x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{transposes square tiles only; @a holds 16x32 tiles}}
    tile.unpack_tile @a[%c0] -> dst[%c0] transpose
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}

// -----

tile.program @transpose_broadcast {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    // expected-error @+1 {{cannot both transpose and broadcast}}
    tile.unpack_tile @a[%c0] -> dst[%c0] bcast col transpose
    tile.commit_dst
    tile.wait_dst
    tile.release_dst
  }
}
