// f16 tensors on the tile chips: the chips' formats have no IEEE half, so
// an f16 tensor is an f32 one in DRAM (f16 to f32 is exact) and the
// runtime converts the host's halves on the way in and rounds on the way
// out. Before: "the tile target reads ... bf16 or f32 tensors; argument
// #0 is 'memref<64x96xf16>'". (Products of f16 still have no matrix
// intrinsic on these chips.)
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @add_f16
// LOWER-NEXT:    tile.dram_tensor @arg0 input : !tile.dram<64x96xf32
// LOWER-LABEL: tile.program @softmax_f16
// LOWER-NEXT:    tile.dram_tensor @arg0 input {host_shape = array<i64: 48, 100>, pad = 0xFF800000 : f32} : !tile.dram<64x128xf32

// CHECK: add_f16: check result #0 (64x96xf16): relative error {{.*}} PASS
// CHECK: softmax_f16: check result #0 (48x100xf16): relative error {{.*}} PASS
func.func @add_f16(%x: tensor<64x96xf16>, %y: tensor<64x96xf16>) -> tensor<64x96xf16> {
  %e = tensor.empty() : tensor<64x96xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<64x96xf16>, tensor<64x96xf16>) outs(%e : tensor<64x96xf16>) {
  ^bb0(%a: f16, %b: f16, %out: f16):
    %s = arith.addf %a, %b : f16
    %t = math.exp %s : f16
    linalg.yield %t : f16
  } -> tensor<64x96xf16>
  return %r : tensor<64x96xf16>
}
func.func @softmax_f16(%x: tensor<48x100xf16>) -> tensor<48x100xf16> {
  %e = tensor.empty() : tensor<48x100xf16>
  %s = linalg.softmax dimension(1) ins(%x : tensor<48x100xf16>) outs(%e : tensor<48x100xf16>) -> tensor<48x100xf16>
  return %s : tensor<48x100xf16>
}
