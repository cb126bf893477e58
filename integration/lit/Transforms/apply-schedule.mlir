// S4 applies a schedule on tensors: the m loop split over the cores
// (scf.forall mapped to the grid level), cache tiles in the order n, k, m,
// B packed once per (n, k) tile outside the m loop and A per m tile, full m
// tiles peeled from the partial one (whose 2 rows get their own 2x32
// register tile: an output is never padded), and 4x32 register tiles
// vectorized with their accumulators kept in vectors
// across the k loop.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-apply-schedule --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%{{.*}}) = (0) to (100) step (50)
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// The packed B panel, made before the m loop.
// CHECK: tensor.empty() : tensor<16x64xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c48 step %c24
// The packed A block inside it.
// CHECK: tensor.empty() : tensor<24x16xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c64 step %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c24 step %c4
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<4x32xf32>, vector<4x32xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16 step %c1 iter_args(%{{.*}} = %[[ACC]]) -> (vector<4x32xf32>)
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<4x32xf32>, tensor<4x32xf32>
// The last m tile (2 rows): packed as is, one 2x32 register tile.
// CHECK: tensor.extract_slice {{.*}} : tensor<2x16xf32> to tensor<2x1xf32>
// CHECK: vector.contract {{.*}} : vector<2x1xf32>, vector<1x32xf32> into vector<2x32xf32>
// CHECK: {mapping = [#strata.grid<"core">]}
// CHECK-NOT: strata.schedule
func.func @matmul(%a: tensor<100x40xf32>, %b: tensor<40x96xf32>, %c: tensor<100x96xf32>) -> tensor<100x96xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", grid_level = "core", grid = [50, 0, 0], tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [0, 1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<100x40xf32>, tensor<40x96xf32>) outs(%c : tensor<100x96xf32>) -> tensor<100x96xf32>
  return %r : tensor<100x96xf32>
}

// A zero-filled accumulator is filled where it is first used: the fill is
// fused into the grid loop and the cache loops over parallel dims before
// the k loop (each thread fills its own n tile while it is in cache), not
// done over the whole output before the nest. K = 40 in tiles of 16 is
// two full k tiles and a static 8-long one, peeled (not padded with zeros).
// CHECK-LABEL: func.func @zero_filled
// CHECK: %[[E:.*]] = tensor.empty() : tensor<100x96xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}) = (0) to (100) step (50) shared_outs(%{{.*}} = %[[E]])
// CHECK: scf.for %{{.*}} = %{{.*}} to %c50 step %c2
// CHECK: vector.transfer_write %{{.*}} : vector<2x64xf32>, tensor<2x64xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32 step %c16
// CHECK: vector.contract
// CHECK-NOT: tensor<24x16xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: return
func.func @zero_filled(%a: tensor<100x40xf32>, %b: tensor<40x96xf32>) -> tensor<100x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x96xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x96xf32>) -> tensor<100x96xf32>
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", grid_level = "core", grid = [50, 0, 0], tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [0, 1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<100x40xf32>, tensor<40x96xf32>) outs(%c : tensor<100x96xf32>) -> tensor<100x96xf32>
  return %r : tensor<100x96xf32>
}

// An n extent that is no multiple of the vector width (70 = 64 + 6) pads
// its edge tile to whole vectors only: the 6 columns past the full 64-wide
// register tile get one 16-wide register tile, not a second 64-wide one.
// CHECK-LABEL: func.func @ragged_n
// CHECK: tensor.empty() : tensor<16x80xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x64xf32> into vector<4x64xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK-NOT: vector<1x64xf32> into vector<4x64xf32>
// CHECK: return
func.func @ragged_n(%a: tensor<8x16xf32>, %b: tensor<16x70xf32>, %c: tensor<8x70xf32>) -> tensor<8x70xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", tiles = [{memory = "l2", sizes = [8, 80, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [0, 1], register = [4, 64, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x70xf32>) outs(%c : tensor<8x70xf32>) -> tensor<8x70xf32>
  return %r : tensor<8x70xf32>
}

// An n tile narrower than the register tile (40 columns, padded to 48) is
// one register tile of its static width (32 + 16 lanes), vectorized
// without masks.
// CHECK-LABEL: func.func @narrow_n
// CHECK: tensor.empty() : tensor<16x48xf32>
// CHECK-NOT: vector.mask
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK-NOT: vector.mask
// CHECK: return
func.func @narrow_n(%a: tensor<8x16xf32>, %b: tensor<16x40xf32>, %c: tensor<8x40xf32>) -> tensor<8x40xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", tiles = [{memory = "l2", sizes = [8, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [0, 1], register = [4, 64, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<8x16xf32>, tensor<16x40xf32>) outs(%c : tensor<8x40xf32>) -> tensor<8x40xf32>
  return %r : tensor<8x40xf32>
}
