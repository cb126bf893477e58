// A function no single tile program covers runs as a sequence of programs.
// A self-attention whose K is its Q is not the one-pass attention program
// (plugin-run-attention.mlir: that program reads Q and K as two tensors), so
// it is split: the transpose of K (tiles read at transposed
// positions and transposed while unpacking), Q K^T with its scale as the
// epilogue, the softmax as a row program, P V. Buffers shared between
// parts are scratch tensors in DRAM (`bind` names what each program tensor
// holds); the runtime runs the programs in order and sums their
// predictions.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER:      tile.program @attn.0 attributes {part_of = "attn"}
// LOWER-NEXT:   tile.dram_tensor @arg0 input {bind = "arg0", host_shape = array<i64: 2, 64, 32>}
// LOWER-NEXT:   tile.dram_tensor @arg1 output {bind = "tmp0", host_shape = array<i64: 2, 32, 64>}
// LOWER:        tile.unpack_tile @in0[%c0] -> dst[%c0] transpose
// LOWER:      tile.program @attn.1 attributes {part_of = "attn"}
// LOWER-NEXT:   tile.dram_tensor @arg0 input {bind = "arg0"
// LOWER-NEXT:   tile.dram_tensor @arg1 input {bind = "tmp0"
// LOWER-NEXT:   tile.dram_tensor @arg2 output {bind = "tmp1"
// LOWER:        tile.matmul_tiles
// LOWER:        tile.unary_scalar mul
// LOWER:      tile.program @attn.2 attributes {part_of = "attn"}
// LOWER-NEXT:   tile.dram_tensor @arg0 input {bind = "tmp1"
// LOWER-NEXT:   tile.dram_tensor @arg1 output {bind = "tmp1"
// LOWER:        tile.reduce max row
// LOWER:        tile.reduce sum row
// LOWER:      tile.program @attn.3 attributes {part_of = "attn"}
// LOWER-NEXT:   tile.dram_tensor @arg0 input {bind = "tmp1"
// LOWER-NEXT:   tile.dram_tensor @arg1 input {bind = "arg1"
// LOWER-NEXT:   tile.dram_tensor @arg2 output {bind = "arg2"
// LOWER-NOT:  tile.program

// CHECK:      attn: ran on tile-wormhole-n150
// CHECK-NEXT: cycle model (tile-wormhole-n150 at 1.00 GHz): [[TOTAL:[0-9]+]] cycles
// CHECK-NEXT:   bound: {{compute|noc|dram}} (busiest DRAM bank
// CHECK-NEXT:   matrix engine: 16 tile matmuls at HiFi4
// CHECK-NEXT:   DRAM: {{.*}} MB moved
// CHECK-NEXT:   4 programs in order:
// CHECK-NEXT:   program @attn.0: {{[0-9]+}} cycles, bound {{compute|noc|dram}}
// CHECK-NEXT:   program @attn.1: {{[0-9]+}} cycles, bound
// CHECK-NEXT:   program @attn.2: {{[0-9]+}} cycles, bound
// CHECK-NEXT:   program @attn.3: {{[0-9]+}} cycles, bound
// CHECK:      attn: check result #0 (2x64x32xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
#map = affine_map<(b, i, j) -> (b, i, j)>
func.func @attn(%q: tensor<2x64x32xf32>, %v: tensor<2x64x32xf32>) -> tensor<2x64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %kt_empty = tensor.empty() : tensor<2x32x64xf32>
  %kt = linalg.transpose ins(%q : tensor<2x64x32xf32>) outs(%kt_empty : tensor<2x32x64xf32>) permutation = [0, 2, 1]
  %s_empty = tensor.empty() : tensor<2x64x64xf32>
  %s_init = linalg.fill ins(%zero : f32) outs(%s_empty : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x64x32xf32>, tensor<2x32x64xf32>)
                           outs(%s_init : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %scaled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x64x64xf32>) outs(%s_empty : tensor<2x64x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %scale = arith.constant 0.17677669 : f32
    %r = arith.mulf %x, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x64x64xf32>
  %p_empty = tensor.empty() : tensor<2x64x64xf32>
  %p = linalg.softmax dimension(2) ins(%scaled : tensor<2x64x64xf32>) outs(%p_empty : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %o_empty = tensor.empty() : tensor<2x64x32xf32>
  %o_init = linalg.fill ins(%zero : f32) outs(%o_empty : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  %out = linalg.batch_matmul ins(%p, %v : tensor<2x64x64xf32>, tensor<2x64x32xf32>)
                             outs(%o_init : tensor<2x64x32xf32>) -> tensor<2x64x32xf32>
  return %out : tensor<2x64x32xf32>
}
