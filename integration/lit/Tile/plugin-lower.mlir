// strata-tile-lower (S5 of the tile target): a scheduled matmul of the
// mapped IR becomes a tile.program with one DRAM tensor per argument
// (padded to whole tiles, the host's shape kept in host_shape), the
// buffers the schedule accounted for, the multicast semaphores, and
// reader / compute / writer kernels on the cores the schedule fills.
// RUN: strata-opt %s --split-input-file --strata-attach-target=target=tile-wormhole-n150 --strata-tile-lower | FileCheck %s

// 100x70 = 100x50 * 50x70: 4x3 tiles of output on 4x3 cores (one tile
// each), k padded to 2 tiles and taken in one step of 2.
// CHECK-LABEL: tile.program @matmul {
// CHECK-NEXT:   tile.dram_tensor @arg0 input {host_shape = array<i64: 100, 50>} : !tile.dram<128x64xbf16, #tile.interleaved>
// CHECK-NEXT:   tile.dram_tensor @arg1 input {host_shape = array<i64: 50, 70>} : !tile.dram<64x96xbf16, #tile.interleaved>
// CHECK-NEXT:   tile.dram_tensor @arg2 output {host_shape = array<i64: 100, 70>} : !tile.dram<128x96xf32, #tile.interleaved>
// CHECK-NEXT:   tile.circular_buffer @in0 cores [0, 0]-[3, 2] : !tile.cb<6x!tile.tile<32x32xbf16>>
// CHECK-NEXT:   tile.circular_buffer @in1 cores [0, 0]-[3, 2] : !tile.cb<6x!tile.tile<32x32xbf16>>
// CHECK-NEXT:   tile.circular_buffer @out cores [0, 0]-[3, 2] : !tile.cb<2x!tile.tile<32x32xf32>>
// CHECK-NEXT:   tile.semaphore @a_ready cores [0, 0]-[3, 2] init 0
// CHECK-NEXT:   tile.semaphore @a_valid cores [0, 0]-[3, 2] init 0
// CHECK-NEXT:   tile.semaphore @b_ready cores [0, 0]-[3, 2] init 0
// CHECK-NEXT:   tile.semaphore @b_valid cores [0, 0]-[3, 2] init 0
// The reader: core [r, 0] reads A's block and multicasts it along row r.
// CHECK:        tile.kernel reader cores [0, 0]-[3, 2] {
// CHECK:          tile.cb_reserve_back @in0, %c2
// CHECK:          tile.noc_read_tile @arg0[{{.*}}] -> {{.*}}
// CHECK:          tile.noc_read_barrier
// CHECK:          tile.sem_wait @a_ready, %c2
// CHECK:          tile.noc_write_multicast {{.*}} -> cores [%{{.*}}, %c1]-[%{{.*}}, %c2] {{.*}} size %c4096
// CHECK:          tile.sem_set_multicast @a_valid -> cores
// CHECK:        } else {
// CHECK:          tile.sem_inc @a_ready core [%{{.*}}, %c0], %c1
// CHECK:          tile.sem_wait @a_valid, %c1
// CHECK:          tile.cb_push_back @in0, %c2
// The compute kernel: tile products into Dst, packed to the output.
// CHECK:        tile.kernel compute cores [0, 0]-[3, 2] attributes {dst_type = f32, fidelity = "HiFi2"} {
// CHECK:          tile.cb_wait_front @in0, %c2
// CHECK:          tile.acquire_dst
// CHECK:          tile.matmul_tiles @in0[{{.*}}], @in1[{{.*}}] -> dst[{{.*}}]
// CHECK:          tile.commit_dst
// CHECK:          tile.wait_dst
// CHECK:          tile.pack_tile dst[{{.*}}] -> @out[{{.*}}]
// CHECK:          tile.release_dst
// The writer: B down the columns from core [0, c], then the output.
// CHECK:        tile.kernel writer cores [0, 0]-[3, 2] {
// CHECK:          tile.noc_read_tile @arg1
// CHECK:          tile.noc_write_multicast {{.*}} -> cores [%c1, %{{.*}}]-[%c3, %{{.*}}]
// CHECK:          tile.noc_write_tile {{.*}} -> @arg2[{{.*}}]
// CHECK-NOT:  func.func
module {
  func.func @matmul(%arg0: memref<100x50xbf16>, %arg1: memref<50x70xbf16>, %arg2: memref<100x70xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    linalg.fill ins(%cst : f32) outs(%arg2 : memref<100x70xf32>)
    linalg.matmul {strata.schedule = #strata.schedule<{grid = [32, 32, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc", multicast = [0, 1], promote = [0, 1], register = [32, 32, 32], register_order = [0, 1, 2], stages = 3 : i64, tile_order = [0, 1, 2], tiles = [{memory = "l1", sizes = [32, 32, 64]}]}>} ins(%arg0, %arg1 : memref<100x50xbf16>, memref<50x70xbf16>) outs(%arg2 : memref<100x70xf32>)
    return
  }
}

// -----

// A matmul epilogue (bias, then GELU in its erf form, computed as written:
// the vector engine's gelu is the tanh approximation, 3e-4 off) runs on the
// accumulator before packing; the bias row is read once per block by the
// writer, repeated in every row of its padded DRAM tensor.
// CHECK-LABEL: tile.program @mlp {
// CHECK:        tile.dram_tensor @arg2 input {host_shape = array<i64: 64>, replicate_rows} : !tile.dram<32x64xf32, #tile.interleaved>
// CHECK:        tile.circular_buffer @ep0 cores [0, 0]-[0, 1] : !tile.cb<2x!tile.tile<32x32xf32>>
// CHECK:        tile.kernel compute
// CHECK:          tile.matmul_tiles
// CHECK:          scf.if
// CHECK:            tile.unpack_tile @ep0[{{.*}}] -> dst[[[SLOT:%.*]]]
// CHECK:            tile.binary_dst add dst[{{.*}}], dst[[[SLOT]]] -> dst
// CHECK-NOT:        tile.unary gelu
// CHECK:            tile.unary erf dst
// CHECK:        tile.kernel writer
// CHECK:          tile.cb_reserve_back @ep0
// CHECK:          tile.noc_read_tile @arg2
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp(%arg0: memref<32x64xbf16>, %arg1: memref<64x64xbf16>, %arg2: memref<64xf32>, %arg3: memref<32x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rs2 = arith.constant 0.707106769 : f32
    %mm = memref.alloc() : memref<32x64xf32>
    linalg.fill ins(%cst : f32) outs(%mm : memref<32x64xf32>)
    linalg.matmul {strata.schedule = #strata.schedule<{grid = [32, 32, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc", multicast = [], promote = [0, 1], register = [32, 32, 32], register_order = [0, 1, 2], stages = 2 : i64, tile_order = [0, 1, 2], tiles = [{memory = "l1", sizes = [32, 32, 64]}]}>} ins(%arg0, %arg1 : memref<32x64xbf16>, memref<64x64xbf16>) outs(%mm : memref<32x64xf32>)
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %arg2 : memref<32x64xf32>, memref<64xf32>) outs(%arg3 : memref<32x64xf32>) {
    ^bb0(%acc: f32, %bias: f32, %o: f32):
      %t = arith.addf %acc, %bias : f32
      %s = arith.mulf %t, %rs2 : f32
      %e = math.erf %s : f32
      %p = arith.addf %e, %one : f32
      %h = arith.mulf %t, %half : f32
      %g = arith.mulf %h, %p : f32
      linalg.yield %g : f32
    }
    memref.dealloc %mm : memref<32x64xf32>
    return
  }
}

// -----

// An elementwise op: tile t on core t mod 64, the broadcast row's tile by
// its column.
// CHECK-LABEL: tile.program @bias_relu {
// CHECK:        tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<4x!tile.tile<32x32xf32>>
// CHECK:        tile.kernel reader cores [0, 0]-[7, 7] {
// CHECK:          arith.cmpi ult, {{.*}}, %c12 : index
// CHECK:          tile.noc_read_tile @arg0[[[TILE:%.*]]] ->
// CHECK:          [[COL:%.*]] = arith.remui [[TILE]], %c3 : index
// CHECK:          tile.noc_read_tile @arg1[[[COL]]] ->
// CHECK:        tile.kernel compute cores [0, 0]-[7, 7] attributes {dst_type = f32} {
// CHECK:          tile.unpack_tile @in0[%c0] -> dst[%c0]
// CHECK:          tile.unpack_tile @in1[%c0] -> dst[%c1]
// CHECK:          tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c0]
// CHECK:          tile.unary relu dst[%c0]
// CHECK:          tile.pack_tile dst[%c0] -> @out[%c0]
// CHECK:        tile.kernel writer
// CHECK:          tile.noc_write_tile {{.*}} -> @arg2[
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @bias_relu(%arg0: memref<100x70xf32>, %arg1: memref<70xf32>, %arg2: memref<100x70xf32>) {
    %zero = arith.constant 0.0 : f32
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : memref<100x70xf32>, memref<70xf32>) outs(%arg2 : memref<100x70xf32>) attrs = {strata.schedule = #strata.schedule<{grid = [32, 32], grid_level = "core", kind = "elementwise", promote = [0, 1], register = [32, 32], tiles = [{memory = "l1", sizes = [32, 64]}]}>} {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    }
    return
  }
}
