// The 1024x1024x1024 bf16 matmul of matmul-1024.mlir with operand reuse
// over the grid: core [r, 0] reads each block of a once and multicasts it
// along row r, core [0, c] reads each block of b once and multicasts it
// down column c. Receivers reserve space, tell the sender (tile.sem_inc on
// its @*_ready), and wait until the sender marks their @*_valid after the
// data. DRAM traffic drops from 35.7 MB to 6.3 MB: the matrix engine, not
// DRAM, bounds the predicted time.
// RUN: strata-tile-run %s --target=tile-wormhole-n150 --reference=matmul | FileCheck %s

// CHECK: program @matmul_mcast on tile-wormhole-n150: 192 kernel instances
// CHECK: output @c (1024x1024 bf16) vs matmul reference: max abs error {{.*}}, relative L2 error {{.*}} (tolerance 2.000000e-02): PASS
// CHECK: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK: bound: compute
// CHECK: matrix engine: 32768 tile matmuls at HiFi4, {{[0-9.]+}}% utilization
// CHECK: DRAM: 6.29 MB moved

tile.program @matmul_mcast {
  tile.dram_tensor @a input : !tile.dram<1024x1024xbf16, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<1024x1024xbf16, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<1024x1024xbf16, #tile.interleaved>
  tile.circular_buffer @in0 cores [0, 0]-[7, 7] : !tile.cb<32x!tile.tile<32x32xbf16>>
  tile.circular_buffer @in1 cores [0, 0]-[7, 7] : !tile.cb<32x!tile.tile<32x32xbf16>>
  tile.circular_buffer @partial cores [0, 0]-[7, 7] : !tile.cb<16x!tile.tile<32x32xf32>>
  tile.circular_buffer @out cores [0, 0]-[7, 7] : !tile.cb<8x!tile.tile<32x32xbf16>>
  tile.semaphore @a_ready cores [0, 0]-[7, 7] init 0
  tile.semaphore @a_valid cores [0, 0]-[7, 7] init 0
  tile.semaphore @b_ready cores [0, 0]-[7, 7] init 0
  tile.semaphore @b_valid cores [0, 0]-[7, 7] init 0

  // Blocks of a: core [r, 0] reads tiles (4r + i, 4kb + k) and sends them
  // to [r, 1]-[r, 7]; the others receive them at the same address.
  tile.kernel reader cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %tile_bytes = arith.constant 2048 : index
    %block_bytes = arith.constant 32768 : index
    %row = tile.core_row
    %col = tile.core_col
    %m0 = arith.muli %row, %c4 : index
    %sender = arith.cmpi eq, %col, %c0 : index
    scf.if %sender {
      tile.sem_set @a_valid, %c1
    }
    scf.for %kb = %c0 to %c8 step %c1 {
      %k0 = arith.muli %kb, %c4 : index
      tile.cb_reserve_back @in0, %c16
      %pa = tile.cb_write_ptr @in0
      scf.if %sender {
        scf.for %i = %c0 to %c4 step %c1 {
          scf.for %k = %c0 to %c4 step %c1 {
            %slot_i = arith.muli %i, %c4 : index
            %slot = arith.addi %slot_i, %k : index
            %offset = arith.muli %slot, %tile_bytes : index
            %ar = arith.addi %m0, %i : index
            %ac = arith.addi %k0, %k : index
            %ar32 = arith.muli %ar, %c32 : index
            %page = arith.addi %ar32, %ac : index
            %addr = arith.addi %pa, %offset : index
            tile.noc_read_tile @a[%page] -> %addr
          }
        }
        tile.noc_read_barrier
        tile.sem_wait @a_ready, %c7
        tile.sem_set @a_ready, %c0
        tile.noc_write_multicast %pa -> cores [%row, %c1]-[%row, %c7] %pa size %block_bytes
        tile.sem_set_multicast @a_valid -> cores [%row, %c1]-[%row, %c7]
        tile.noc_write_barrier
      } else {
        tile.sem_set @a_valid, %c0
        tile.sem_inc @a_ready core [%row, %c0], %c1
        tile.sem_wait @a_valid, %c1
      }
      tile.cb_push_back @in0, %c16
    }
  }

  tile.kernel compute cores [0, 0]-[7, 7] attributes {dst_type = f32, fidelity = "HiFi4"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    scf.for %kb = %c0 to %c8 step %c1 {
      tile.cb_wait_front @in0, %c16
      tile.cb_wait_front @in1, %c16
      %first = arith.cmpi eq, %kb, %c0 : index
      %last = arith.cmpi eq, %kb, %c7 : index
      scf.for %sh = %c0 to %c2 step %c1 {
        scf.for %sw = %c0 to %c2 step %c1 {
          tile.acquire_dst
          // Partial sums of the earlier blocks, in subblock order.
          scf.if %first {
          } else {
            tile.cb_wait_front @partial, %c4
            scf.for %t = %c0 to %c4 step %c1 {
              tile.unpack_tile @partial[%t] -> dst[%t]
            }
            tile.cb_pop_front @partial, %c4
          }
          scf.for %k = %c0 to %c4 step %c1 {
            scf.for %i = %c0 to %c2 step %c1 {
              scf.for %j = %c0 to %c2 step %c1 {
                // a tile (2sh + i, k), b tile (k, 2sw + j) of the block.
                %sh2 = arith.muli %sh, %c2 : index
                %ai = arith.addi %sh2, %i : index
                %ai4 = arith.muli %ai, %c4 : index
                %aidx = arith.addi %ai4, %k : index
                %k4 = arith.muli %k, %c4 : index
                %sw2 = arith.muli %sw, %c2 : index
                %bj = arith.addi %sw2, %j : index
                %bidx = arith.addi %k4, %bj : index
                %i2 = arith.muli %i, %c2 : index
                %d = arith.addi %i2, %j : index
                tile.matmul_tiles @in0[%aidx], @in1[%bidx] -> dst[%d]
              }
            }
          }
          tile.commit_dst
          tile.wait_dst
          scf.if %last {
            tile.cb_reserve_back @out, %c4
            scf.for %t = %c0 to %c4 step %c1 {
              tile.pack_tile dst[%t] -> @out[%t]
            }
            tile.cb_push_back @out, %c4
          } else {
            tile.cb_reserve_back @partial, %c4
            scf.for %t = %c0 to %c4 step %c1 {
              tile.pack_tile dst[%t] -> @partial[%t]
            }
            tile.cb_push_back @partial, %c4
          }
          tile.release_dst
        }
      }
      tile.cb_pop_front @in0, %c16
      tile.cb_pop_front @in1, %c16
    }
  }

  // Blocks of b: core [0, c] reads tiles (4kb + k, 4c + j) and sends them
  // to [1, c]-[7, c]. Then the block of c, subblock by subblock: subblock
  // (sh, sw) tile (i, j) is c tile (4r + 2sh + i, 4c + 2sw + j).
  tile.kernel writer cores [0, 0]-[7, 7] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %tile_bytes = arith.constant 2048 : index
    %block_bytes = arith.constant 32768 : index
    %out_tile_bytes = arith.constant 2048 : index
    %row = tile.core_row
    %col = tile.core_col
    %m0 = arith.muli %row, %c4 : index
    %n0 = arith.muli %col, %c4 : index
    %sender = arith.cmpi eq, %row, %c0 : index
    scf.if %sender {
      tile.sem_set @b_valid, %c1
    }
    scf.for %kb = %c0 to %c8 step %c1 {
      %k0 = arith.muli %kb, %c4 : index
      tile.cb_reserve_back @in1, %c16
      %pb = tile.cb_write_ptr @in1
      scf.if %sender {
        scf.for %k = %c0 to %c4 step %c1 {
          scf.for %j = %c0 to %c4 step %c1 {
            %slot_k = arith.muli %k, %c4 : index
            %slot = arith.addi %slot_k, %j : index
            %offset = arith.muli %slot, %tile_bytes : index
            %br = arith.addi %k0, %k : index
            %bc = arith.addi %n0, %j : index
            %br32 = arith.muli %br, %c32 : index
            %page = arith.addi %br32, %bc : index
            %addr = arith.addi %pb, %offset : index
            tile.noc_read_tile @b[%page] -> %addr
          }
        }
        tile.noc_read_barrier
        tile.sem_wait @b_ready, %c7
        tile.sem_set @b_ready, %c0
        tile.noc_write_multicast %pb -> cores [%c1, %col]-[%c7, %col] %pb size %block_bytes
        tile.sem_set_multicast @b_valid -> cores [%c1, %col]-[%c7, %col]
        tile.noc_write_barrier
      } else {
        tile.sem_set @b_valid, %c0
        tile.sem_inc @b_ready core [%c0, %col], %c1
        tile.sem_wait @b_valid, %c1
      }
      tile.cb_push_back @in1, %c16
    }
    scf.for %sh = %c0 to %c2 step %c1 {
      scf.for %sw = %c0 to %c2 step %c1 {
        tile.cb_wait_front @out, %c4
        %p = tile.cb_read_ptr @out
        scf.for %i = %c0 to %c2 step %c1 {
          scf.for %j = %c0 to %c2 step %c1 {
            %sh2 = arith.muli %sh, %c2 : index
            %r0 = arith.addi %m0, %sh2 : index
            %r = arith.addi %r0, %i : index
            %sw2 = arith.muli %sw, %c2 : index
            %q0 = arith.addi %n0, %sw2 : index
            %q = arith.addi %q0, %j : index
            %r32 = arith.muli %r, %c32 : index
            %page = arith.addi %r32, %q : index
            %i2 = arith.muli %i, %c2 : index
            %slot = arith.addi %i2, %j : index
            %offset = arith.muli %slot, %out_tile_bytes : index
            %addr = arith.addi %p, %offset : index
            tile.noc_write_tile %addr -> @c[%page]
          }
        }
        tile.noc_write_barrier
        tile.cb_pop_front @out, %c4
      }
    }
  }
}
