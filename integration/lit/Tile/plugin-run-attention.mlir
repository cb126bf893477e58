// An attention is one program (the online softmax of flash attention):
// each core owns one tile-row of queries of a head, streams the head's K
// and V tiles in steps through circular buffers, transposes K while
// unpacking, keeps the running row maximum, row sum and output rows in L1
// and never writes the scores to DRAM. Key step, copies and multicast are
// the core's attention schedule (shown with its prediction as the
// program's `attention` attribute); the buffers are its buffers. 256 keys
// in steps of 4 tiles: the rescaling of the second step runs.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER:      tile.program @attn attributes {attention = {bound = "compute", footprint_bytes = 249856 : i64, key_tiles = 4 : i64, multicast = false, predicted_cycles = {{[0-9]+}} : i64, stages = 2 : i64}} {
// LOWER-NEXT:   tile.dram_tensor @arg0 input {host_shape = array<i64: 2, 64, 64>} : !tile.dram<128x64xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg1 input {host_shape = array<i64: 2, 256, 64>} : !tile.dram<512x64xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg2 input {host_shape = array<i64: 2, 256, 64>} : !tile.dram<512x64xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg3 output {host_shape = array<i64: 2, 64, 64>} : !tile.dram<128x64xf32, #tile.interleaved>
// LOWER-NEXT:   tile.circular_buffer @q cores [0, 0]-[1, 1] : !tile.cb<2x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @qs cores [0, 0]-[1, 1] : !tile.cb<2x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @k cores [0, 0]-[1, 1] : !tile.cb<16x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @kt cores [0, 0]-[1, 1] : !tile.cb<8x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @v cores [0, 0]-[1, 1] : !tile.cb<16x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @s cores [0, 0]-[1, 1] : !tile.cb<4x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @p cores [0, 0]-[1, 1] : !tile.cb<4x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @m cores [0, 0]-[1, 1] : !tile.cb<1x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @l cores [0, 0]-[1, 1] : !tile.cb<1x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @alpha cores [0, 0]-[1, 1] : !tile.cb<1x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @o cores [0, 0]-[1, 1] : !tile.cb<2x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.circular_buffer @out cores [0, 0]-[1, 1] : !tile.cb<4x!tile.tile<32x32xf32>>
// LOWER-NEXT:   tile.kernel reader
// LOWER:          tile.noc_read_tile @arg1
// LOWER:        tile.kernel compute cores [0, 0]-[1, 1] attributes {dst_type = f32, fidelity = "HiFi4"}
// LOWER:          tile.unary_scalar mul dst[%c0], 1.250000e-01
// LOWER:          tile.unpack_tile @k[%{{.*}}] -> dst[%c0] transpose
// LOWER:          tile.matmul_tiles @qs[%{{.*}}], @kt[%{{.*}}] -> dst[%c0]
// LOWER:          tile.reduce max row @s[%{{.*}}] -> dst[%c0]
// LOWER:          tile.binary_dst sub dst[%c1], dst[%c0] -> dst[%c1]
// LOWER-NEXT:     tile.unary exp dst[%c1]
// LOWER:          tile.binary sub @s[%{{.*}}], @m[%c0] -> dst[%c0] bcast col
// LOWER-NEXT:     tile.unary exp dst[%c0]
// LOWER:          tile.binary mul @l[%c0], @alpha[%c0] -> dst[%c0]
// LOWER:          tile.reduce sum row @p[%{{.*}}] -> dst[%c0]
// LOWER:          tile.binary mul @o[%c0], @alpha[%c0] -> dst[%c0] bcast col
// LOWER:          tile.matmul_tiles @p[%{{.*}}], @v[%{{.*}}] -> dst[%c0]
// LOWER:          tile.unary recip dst[%c0]
// LOWER:          tile.binary mul @o[%{{.*}}], @alpha[%c0] -> dst[%c0] bcast col
// LOWER:        tile.kernel writer
// LOWER:          tile.noc_read_tile @arg2
// LOWER:          tile.noc_write_tile %{{.*}} -> @arg3
// LOWER-NOT:  tile.program

// CHECK:      attn: ran on tile-wormhole-n150
// CHECK-NEXT: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK-NEXT:   bound: compute (busiest DRAM bank
// CHECK-NEXT:   matrix engine: 128 tile matmuls at HiFi4
// CHECK-NOT:    programs in order
// CHECK:      attn: check result #0 (2x64x64xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
#map = affine_map<(b, i, j) -> (b, i, j)>
func.func @attn(%q: tensor<2x64x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %kt_empty = tensor.empty() : tensor<2x64x256xf32>
  %kt = linalg.transpose ins(%k : tensor<2x256x64xf32>) outs(%kt_empty : tensor<2x64x256xf32>) permutation = [0, 2, 1]
  %s_empty = tensor.empty() : tensor<2x64x256xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x64x64xf32>, tensor<2x64x256xf32>)
                           outs(%s_init : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %scaled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x64x256xf32>) outs(%s_empty : tensor<2x64x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.125 : f32
    %r = arith.mulf %x, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x64x256xf32>
  %p_empty = tensor.empty() : tensor<2x64x256xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x64x256xf32>) outs(%p_empty : tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
  %o_empty = tensor.empty() : tensor<2x64x64xf32>
  %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x64x256xf32>, tensor<2x256x64xf32>)
                             outs(%o_init : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %out : tensor<2x64x64xf32>
}
