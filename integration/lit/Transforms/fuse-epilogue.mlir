// An elementwise consumer of a contraction (bias + ReLU) runs as its
// epilogue: inside the grid loop and the n loop, after the k loop has
// finished the output tile, on that tile. The contraction's own result is
// no longer carried whole: only tiles of it exist (no 64x96 tensor besides
// the output), each filled with zeros where it starts.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-apply-schedule --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @linear_relu
// One carried value only, the output: the contraction's result is not.
// CHECK: scf.forall (%{{.*}}) = (0) to (64) step (32) shared_outs(%[[OUT:[a-z0-9_]+]] = %{{[a-z0-9_]+}}) -> (tensor<64x96xf32>) {
// The first n tile (64 columns): zeroed, the k loop, then its epilogue.
// CHECK: %[[ZERO:.*]] = scf.for {{.*}} -> (tensor<32x64xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c16 iter_args(%{{.*}} = %[[ZERO]]) -> (tensor<32x64xf32>)
// CHECK: vector.contract
// CHECK: arith.maximumf {{.*}} : vector<2x64xf32>
// The last n tile (32 columns), peeled: the same.
// CHECK: %[[ZERO2:.*]] = scf.for {{.*}} -> (tensor<32x32xf32>)
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c16 iter_args(%{{.*}} = %[[ZERO2]]) -> (tensor<32x32xf32>)
// CHECK: vector.contract
// CHECK: arith.maximumf {{.*}} : vector<4x32xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[OUT]]
// CHECK-NEXT: }
// CHECK-NEXT: {mapping = [#strata.grid<"core">]}
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @linear_relu(%a: tensor<64x48xf32>, %b: tensor<48x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", grid_level = "core", grid = [32, 0, 0], tiles = [{memory = "l2", sizes = [0, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [0, 1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<64x48xf32>, tensor<48x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %o = tensor.empty() : tensor<64x96xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"],
                       strata.schedule = #strata.schedule<{kind = "elementwise", register = [1, 64], vector_dim = 1, vector_width = 16}>}
      ins(%r, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%o : tensor<64x96xf32>) {
  ^bb0(%x: f32, %bb: f32, %out: f32):
    %s = arith.addf %x, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}
