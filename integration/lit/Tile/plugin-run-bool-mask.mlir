// Boolean (i1) tensors read from DRAM: a mask given as an argument, as
// PyTorch's attn_mask / masked_fill export it, is a bf16 tensor of 1.0 and
// 0.0 on the chip; the runtime converts the host's bytes. The [n x n] mask
// is broadcast over the batch by a copy program. Before, the tile target
// refused i1 tensors ("reads ... bf16 or f32 tensors").
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @bool_mask.0
// LOWER-NEXT:    tile.dram_tensor @arg0 input {bind = "arg1", flatten, host_shape = array<i64: 64, 64>} : !tile.dram<64x64xbf16
// LOWER-LABEL: tile.program @bool_mask.1
// LOWER:         tile.where_dst
// LOWER-LABEL: tile.program @bool_mask_ragged.1
// LOWER:         tile.dram_tensor @arg1 input {bind = "tmp0", flatten, host_shape = array<i64: 2, 40, 40>} : !tile.dram<96x64xbf16

// CHECK: bool_mask: check result #0 (2x64x64xf32): relative error {{.*}} PASS
func.func @bool_mask(%s: tensor<2x64x64xf32>, %m: tensor<64x64xi1>) -> tensor<2x64x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x64x64xf32>, tensor<64x64xi1>) outs(%e : tensor<2x64x64xf32>) {
  ^bb0(%a: f32, %b: i1, %out: f32):
    %v = arith.select %b, %a, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<2x64x64xf32>
  %e2 = tensor.empty() : tensor<2x64x64xf32>
  %sm = linalg.softmax dimension(2) ins(%r : tensor<2x64x64xf32>) outs(%e2 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  return %sm : tensor<2x64x64xf32>
}

// Rows of 40: the mask's padding holds 0 (false), so the padded scores are
// -inf and leave the softmax's max and sum as they are.
// CHECK: bool_mask_ragged: check result #0 (2x40x40xf32): relative error {{.*}} PASS
func.func @bool_mask_ragged(%s: tensor<2x40x40xf32>, %m: tensor<40x40xi1>) -> tensor<2x40x40xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x40x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %m : tensor<2x40x40xf32>, tensor<40x40xi1>) outs(%e : tensor<2x40x40xf32>) {
  ^bb0(%a: f32, %b: i1, %out: f32):
    %v = arith.select %b, %a, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<2x40x40xf32>
  %e2 = tensor.empty() : tensor<2x40x40xf32>
  %sm = linalg.softmax dimension(2) ins(%r : tensor<2x40x40xf32>) outs(%e2 : tensor<2x40x40xf32>) -> tensor<2x40x40xf32>
  return %sm : tensor<2x40x40xf32>
}
