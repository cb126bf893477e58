// Every type, attribute and op of the tile dialect prints as it parses, in
// the custom and the generic form.
// RUN: strata-opt %s --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file | strata-opt --split-input-file | FileCheck %s
// RUN: strata-opt %s --split-input-file --mlir-print-op-generic | strata-opt --split-input-file | FileCheck %s

// CHECK-LABEL: tile.program @declarations
// CHECK-NEXT: tile.dram_tensor @a input : !tile.dram<1024x1024xbf16, #tile.interleaved>
// CHECK-NEXT: tile.dram_tensor @b input : !tile.dram<256x1024xbf16, #tile.sharded<height, shard = [32, 1024]>>
// CHECK-NEXT: tile.dram_tensor @c output : !tile.dram<64x128xf32, #tile.sharded<block, shard = [32, 64]>>
// CHECK-NEXT: tile.dram_tensor @d scratch : !tile.dram<64x64xbf16, #tile.sharded<width, shard = [64, 32]>, tile 16x32>
// CHECK-NEXT: tile.dram_tensor @e scratch : !tile.dram<64x64xf32, #tile.interleaved, face 32x32>
// CHECK-NEXT: tile.dram_tensor @f input : !tile.dram<64x64x!tile.bfp8, #tile.interleaved>
// CHECK-NEXT: tile.dram_tensor @g input : !tile.dram<32x64x!tile.bfp4, #tile.interleaved>
// CHECK-NEXT: tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>
// CHECK-NEXT: tile.circular_buffer @acc cores [1, 2]-[3, 4] : !tile.cb<8x!tile.tile<32x32xf32, face 16x32>>
// CHECK-NEXT: tile.semaphore @ready cores [0, 0]-[0, 7] init 3
// CHECK-NEXT: tile.kernel reader cores [0, 0]-[0, 0] {
// CHECK-NEXT: }
tile.program @declarations {
  tile.dram_tensor @a input : !tile.dram<1024x1024xbf16, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<256x1024xbf16, #tile.sharded<height, shard = [32, 1024]>>
  tile.dram_tensor @c output : !tile.dram<64x128xf32, #tile.sharded<block, shard = [32, 64]>>
  tile.dram_tensor @d scratch : !tile.dram<64x64xbf16, #tile.sharded<width, shard = [64, 32]>, tile 16x32>
  tile.dram_tensor @e scratch : !tile.dram<64x64xf32, #tile.interleaved, tile 32x32, face 32x32>
  tile.dram_tensor @f input : !tile.dram<64x64x!tile.bfp8, #tile.interleaved>
  tile.dram_tensor @g input : !tile.dram<32x64x!tile.bfp4, #tile.interleaved>
  tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @acc cores [1, 2]-[3, 4] : !tile.cb<8 x !tile.tile<32x32xf32, face 16x32>>
  tile.semaphore @ready cores [0, 0]-[0, 7] init 3
  tile.kernel reader cores [0, 0]-[0, 0] {
  }
}

// -----

// CHECK-LABEL: tile.program @data_movement
// CHECK: tile.kernel reader cores [0, 0]-[1, 1] {
// CHECK: %[[ROW:.*]] = tile.core_row
// CHECK: %[[COL:.*]] = tile.core_col
// CHECK: tile.cb_reserve_back @in, %[[ONE:.*]]
// CHECK: %[[W:.*]] = tile.cb_write_ptr @in
// CHECK: tile.noc_read_tile @a[%[[COL]]] -> %[[W]]
// CHECK: tile.noc_read_bytes @a[%[[ROW]]] offset %[[ONE]] size %[[ONE]] -> %[[W]]
// CHECK: tile.noc_read_l1 core [%[[ROW]], %[[COL]]] %[[W]] -> %[[W]] size %[[ONE]]
// CHECK: tile.noc_read_barrier
// CHECK: tile.cb_push_back @in, %[[ONE]]
// CHECK: tile.kernel writer cores [0, 0]-[1, 1] {
// CHECK: tile.cb_wait_front @in, %[[ONE:.*]]
// CHECK: %[[R:.*]] = tile.cb_read_ptr @in
// CHECK: tile.noc_write_tile %[[R]] -> @b[%[[ONE]]]
// CHECK: tile.noc_write_bytes %[[R]] size %[[ONE]] -> @b[%[[ONE]]] offset %[[ONE]]
// CHECK: tile.noc_write_l1 %[[R]] -> core [%[[ONE]], %[[ONE]]] %[[R]] size %[[ONE]]
// CHECK: tile.noc_write_multicast %[[R]] -> cores [%[[ONE]], %[[ONE]]]-[%[[ONE]], %[[ONE]]] %[[R]] size %[[ONE]]
// CHECK: tile.noc_write_barrier
// CHECK: tile.sem_wait @s, %[[ONE]]
// CHECK: tile.sem_set @s, %[[ONE]]
// CHECK: tile.sem_inc @s core [%[[ONE]], %[[ONE]]], %[[ONE]]
// CHECK: tile.sem_set_multicast @s -> cores [%[[ONE]], %[[ONE]]]-[%[[ONE]], %[[ONE]]]
// CHECK: tile.cb_pop_front @in, %[[ONE]]
tile.program @data_movement {
  tile.dram_tensor @a input : !tile.dram<64x64xbf16, #tile.interleaved>
  tile.dram_tensor @b output : !tile.dram<64x64xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[1, 1] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.semaphore @s cores [0, 0]-[1, 1] init 0
  tile.kernel reader cores [0, 0]-[1, 1] {
    %c1 = arith.constant 1 : index
    %row = tile.core_row
    %col = tile.core_col
    tile.cb_reserve_back @in, %c1
    %w = tile.cb_write_ptr @in
    tile.noc_read_tile @a[%col] -> %w
    tile.noc_read_bytes @a[%row] offset %c1 size %c1 -> %w
    tile.noc_read_l1 core [%row, %col] %w -> %w size %c1
    tile.noc_read_barrier
    tile.cb_push_back @in, %c1
  }
  tile.kernel writer cores [0, 0]-[1, 1] {
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @in, %c1
    %r = tile.cb_read_ptr @in
    tile.noc_write_tile %r -> @b[%c1]
    tile.noc_write_bytes %r size %c1 -> @b[%c1] offset %c1
    tile.noc_write_l1 %r -> core [%c1, %c1] %r size %c1
    tile.noc_write_multicast %r -> cores [%c1, %c1]-[%c1, %c1] %r size %c1
    tile.noc_write_barrier
    tile.sem_wait @s, %c1
    tile.sem_set @s, %c1
    tile.sem_inc @s core [%c1, %c1], %c1
    tile.sem_set_multicast @s -> cores [%c1, %c1]-[%c1, %c1]
    tile.cb_pop_front @in, %c1
  }
}

// -----

// CHECK-LABEL: tile.program @compute
// CHECK: tile.kernel compute cores [0, 0]-[0, 0] attributes {dst_type = bf16, fidelity = "LoFi"} {
// CHECK: tile.acquire_dst
// CHECK-NEXT: tile.matmul_tiles @a[%[[I:.*]]], @b[%[[I]]] -> dst[%[[I]]]
// CHECK-NEXT: tile.binary add @a[%[[I]]], @b[%[[I]]] -> dst[%[[I]]]{{$}}
// CHECK-NEXT: tile.binary sub @a[%[[I]]], @b[%[[I]]] -> dst[%[[I]]] bcast col
// CHECK-NEXT: tile.binary mul @a[%[[I]]], @b[%[[I]]] -> dst[%[[I]]] bcast row
// CHECK-NEXT: tile.binary max @a[%[[I]]], @b[%[[I]]] -> dst[%[[I]]] bcast scalar
// CHECK-NEXT: tile.unpack_tile @a[%[[I]]] -> dst[%[[I]]]{{$}}
// CHECK-NEXT: tile.unpack_tile @a[%[[I]]] -> dst[%[[I]]] bcast col
// CHECK-NEXT: tile.reduce sum row @a[%[[I]]] -> dst[%[[I]]]
// CHECK-NEXT: tile.reduce max col @a[%[[I]]] -> dst[%[[I]]]
// CHECK-NEXT: tile.unary exp dst[%[[I]]]
// CHECK-NEXT: tile.unary recip dst[%[[I]]]
// CHECK-NEXT: tile.unary gelu dst[%[[I]]]
// CHECK-NEXT: tile.unary relu dst[%[[I]]]
// CHECK-NEXT: tile.unary sqrt dst[%[[I]]]
// CHECK-NEXT: tile.unary rsqrt dst[%[[I]]]
// CHECK-NEXT: tile.unary neg dst[%[[I]]]
// CHECK-NEXT: tile.unary abs dst[%[[I]]]
// CHECK-NEXT: tile.unary tanh dst[%[[I]]]
// CHECK-NEXT: tile.unary_scalar add dst[%[[I]]], 1.000000e+00
// CHECK-NEXT: tile.unary_scalar sub dst[%[[I]]], 2.500000e-01
// CHECK-NEXT: tile.unary_scalar rsub dst[%[[I]]], -3.000000e+00
// CHECK-NEXT: tile.unary_scalar mul dst[%[[I]]], 1.250000e-01
// CHECK-NEXT: tile.unary_scalar max dst[%[[I]]], 0.000000e+00
// CHECK-NEXT: tile.unary_scalar min dst[%[[I]]], 3.40282347E+38
// CHECK-NEXT: tile.binary_dst max dst[%[[I]]], dst[%[[I]]] -> dst[%[[I]]]
// CHECK-NEXT: tile.unary_scalar eq dst[%[[I]]], 0xFF800000
// CHECK-NEXT: tile.unary_scalar ne dst[%[[I]]], 0.000000e+00
// CHECK-NEXT: tile.unary_scalar lt dst[%[[I]]], 1.000000e+00
// CHECK-NEXT: tile.unary_scalar le dst[%[[I]]], 1.000000e+00
// CHECK-NEXT: tile.unary_scalar gt dst[%[[I]]], 1.000000e+00
// CHECK-NEXT: tile.unary_scalar ge dst[%[[I]]], 1.000000e+00
// CHECK-NEXT: tile.unary_scalar fill dst[%[[I]]], 5.000000e-01
// CHECK-NEXT: tile.where_dst dst[%[[I]]], dst[%[[I]]], dst[%[[I]]] -> dst[%[[I]]]
// CHECK-NEXT: tile.commit_dst
// CHECK-NEXT: tile.wait_dst
// CHECK-NEXT: tile.pack_tile dst[%[[I]]] -> @c[%[[I]]]
// CHECK-NEXT: tile.release_dst
tile.program @compute {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @c cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xf32>>
  tile.kernel compute cores [0, 0]-[0, 0] attributes {dst_type = bf16, fidelity = "LoFi"} {
    %c0 = arith.constant 0 : index
    tile.acquire_dst
    tile.matmul_tiles @a[%c0], @b[%c0] -> dst[%c0]
    tile.binary add @a[%c0], @b[%c0] -> dst[%c0] bcast none
    tile.binary sub @a[%c0], @b[%c0] -> dst[%c0] bcast col
    tile.binary mul @a[%c0], @b[%c0] -> dst[%c0] bcast row
    tile.binary max @a[%c0], @b[%c0] -> dst[%c0] bcast scalar
    tile.unpack_tile @a[%c0] -> dst[%c0]
    tile.unpack_tile @a[%c0] -> dst[%c0] bcast col
    tile.reduce sum row @a[%c0] -> dst[%c0]
    tile.reduce max col @a[%c0] -> dst[%c0]
    tile.unary exp dst[%c0]
    tile.unary recip dst[%c0]
    tile.unary gelu dst[%c0]
    tile.unary relu dst[%c0]
    tile.unary sqrt dst[%c0]
    tile.unary rsqrt dst[%c0]
    tile.unary neg dst[%c0]
    tile.unary abs dst[%c0]
    tile.unary tanh dst[%c0]
    tile.unary_scalar add dst[%c0], 1.0
    tile.unary_scalar sub dst[%c0], 0.25
    tile.unary_scalar rsub dst[%c0], -3.0
    tile.unary_scalar mul dst[%c0], 0x3E000000
    tile.unary_scalar max dst[%c0], 0.0
    tile.unary_scalar min dst[%c0], 3.40282347E+38
    tile.binary_dst max dst[%c0], dst[%c0] -> dst[%c0]
    tile.unary_scalar eq dst[%c0], 0xFF800000
    tile.unary_scalar ne dst[%c0], 0.0
    tile.unary_scalar lt dst[%c0], 1.0
    tile.unary_scalar le dst[%c0], 1.0
    tile.unary_scalar gt dst[%c0], 1.0
    tile.unary_scalar ge dst[%c0], 1.0
    tile.unary_scalar fill dst[%c0], 0.5
    tile.where_dst dst[%c0], dst[%c0], dst[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.pack_tile dst[%c0] -> @c[%c0]
    tile.release_dst
  }
}

// -----

// Loops and conditions in kernels are scf; the core range attribute has a
// form of its own outside ops.
// CHECK-LABEL: tile.program @loops attributes {range = #tile.cores<[0, 1]-[2, 3]>}
// CHECK: scf.for
// CHECK: tile.acquire_dst
// CHECK: scf.if
// CHECK: tile.release_dst
tile.program @loops attributes {range = #tile.cores<[0, 1]-[2, 3]>} {
  tile.circular_buffer @a cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      tile.cb_wait_front @a, %c1
      tile.acquire_dst
      %first = arith.cmpi eq, %i, %c0 : index
      scf.if %first {
        tile.unpack_tile @a[%c0] -> dst[%c0]
      }
      tile.commit_dst
      tile.wait_dst
      tile.release_dst
      tile.cb_pop_front @a, %c1
    }
  }
}
