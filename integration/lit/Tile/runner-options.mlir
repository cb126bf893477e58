// strata-tile-run's choices and their errors.
// RUN: not strata-tile-run %s --target=tile-wormhole-n151 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 2>&1 | FileCheck %s --check-prefix=WHICH
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not strata-tile-run %s --program=fill 2>&1 | FileCheck %s --check-prefix=NOCHIP
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=fill --reference=conv 2>&1 | FileCheck %s --check-prefix=REF
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=fill --reference=matmul 2>&1 | FileCheck %s --check-prefix=SHAPES
// RUN: not strata-tile-run %s --target=tile-wormhole-n150 --program=fill --reference=add 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: strata-tile-run %s --target=%descriptions/tile/descriptions/tile-blackhole-p150.json --program=fill --per-core | FileCheck %s --check-prefix=CORES

// TARGET: strata-tile-run: error: unknown target 'tile-wormhole-n151'; expected one of: {{.*}}tile-wormhole-n150, or a path to a .json description
// WHICH: strata-tile-run: error: expected one tile.program, found 2; choose one with --program
// NOPE: strata-tile-run: error: no tile.program @nope
// NOCHIP: strata-tile-run: error: no chip: give --target=NAME or attach strata.hw
// REF: strata-tile-run: error: unknown reference 'conv': expected one of matmul, add, softmax
// SHAPES: strata-tile-run: error: reference 'matmul': a 64x32 times b 64x32 does not give the output 64x32
// The output is a + 1 where a + b is expected: the check fails.
// FAIL: output @c (64x32 f32) vs add reference: {{.*}}: FAIL

// CORES: program @fill on tile-blackhole-p150: 6 kernel instances
// CORES: output @c (64x32 f32): not checked
// CORES: cycle model (tile-blackhole-p150 at 1.35 GHz)
// CORES: {{^  }}core [0, 0]: reader {{[0-9]+}}, compute {{[0-9]+}}, writer {{[0-9]+}} cycles
// CORES-NEXT: {{^  }}core [1, 0]: reader

// c = a + 1 (the second input is ignored), one tile per core.
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

tile.program @other {
}
