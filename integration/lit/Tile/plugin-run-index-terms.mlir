// Body terms computed from the iteration's indices and constants only (the
// parity of j - i, the column index) are evaluated at compile time into
// constant tensors the program reads beside its input: the tile engines
// have no per-element index. The runtime fills them from the module's
// tile.constants. Before, the lowering stopped at 'linalg.index'.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:      module attributes {
// LOWER-SAME:   tile.constants = {index_term = dense<"0x{{[0-9A-F]+}}"> : tensor<64x96xf32>,
// LOWER-SAME:   index_term_0 = dense<[0.000000e+00, 1.000000e+00, 2.000000e+00,
// LOWER:      tile.program @positions.0 attributes {part_of = "positions"}
// LOWER-NEXT:   tile.dram_tensor @arg0 input {bind = "arg0"}
// LOWER-NEXT:   tile.dram_tensor @arg1 input {bind = "index_term"} : !tile.dram<64x96xf32
// LOWER-NEXT:   tile.dram_tensor @arg2 input {bind = "index_term_0", host_shape = array<i64: 96>, replicate_rows}
// LOWER-NOT:  linalg.index

// CHECK: positions: check result #0 (64x96xf32): relative error {{.*}} PASS
func.func @positions(%x: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %c2 = arith.constant 2 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %m = arith.remsi %d, %c2 : i64
    %f = arith.sitofp %m : i64 to f32
    %s = arith.mulf %in, %f : f32
    %p = arith.sitofp %jj : i64 to f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// A causal mask added to a batch of products, as PyTorch exports it: the
// [64 x 64] mask is read per (i, j), broadcast over the batch.
// CHECK: masked_scores: check result #0 (2x64x64xf32): relative error {{.*}} PASS
func.func @masked_scores(%q: tensor<2x64x32xf32>, %k: tensor<2x32x64xf32>) -> tensor<2x64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<2x64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<2x64x32xf32>, tensor<2x32x64xf32>) outs(%f : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %e2 = tensor.empty() : tensor<2x64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x64x64xf32>) outs(%e2 : tensor<2x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %c = arith.cmpi sle, %d, %c0 : i64
    %m = arith.select %c, %zero, %ninf : f32
    %t = arith.addf %in, %m : f32
    linalg.yield %t : f32
  } -> tensor<2x64x64xf32>
  return %r : tensor<2x64x64xf32>
}
