// A grid split whose extent does not divide evenly (100 rows in parts of
// 52: 52 + 48) gives each kind of part a static version of the body: an
// scf.if on the part's size picks the 52-row or the 48-row copy, so no tile
// of either has a dynamic shape (one shared body would pad and copy every
// cache tile of the short part). Both write into the same slice of the
// shared output.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-apply-schedule --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK: scf.forall (%[[P:.*]]) = (0) to (100) step (52) shared_outs(%[[OUT:.*]] = %{{.*}})
// CHECK: %[[SIZE:.*]] = affine.min
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[SIZE]], %c52
// CHECK: %[[PART:.*]] = scf.if %[[FULL]] -> (tensor<?x96xf32>)
// CHECK-NOT: tensor<?x
// CHECK-NOT: x?x
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: tensor.cast %{{.*}} : tensor<52x96xf32> to tensor<?x96xf32>
// CHECK: } else {
// CHECK-NOT: tensor<?x
// CHECK-NOT: x?x
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// CHECK: tensor.cast %{{.*}} : tensor<48x96xf32> to tensor<?x96xf32>
// CHECK: tensor.parallel_insert_slice %[[PART]] into %[[OUT]][%[[P]], 0] [%[[SIZE]], 96]
func.func @matmul(%a: tensor<100x48xf32>, %b: tensor<48x96xf32>, %c: tensor<100x96xf32>) -> tensor<100x96xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", grid_level = "core", grid = [52, 0, 0], tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<100x48xf32>, tensor<48x96xf32>) outs(%c : tensor<100x96xf32>) -> tensor<100x96xf32>
  return %r : tensor<100x96xf32>
}

// An evenly divided grid keeps one body.
// CHECK-LABEL: func.func @even
// CHECK: scf.forall (%{{.*}}) = (0) to (100) step (50)
// CHECK-NOT: scf.if
// CHECK: return
func.func @even(%a: tensor<100x48xf32>, %b: tensor<48x96xf32>, %c: tensor<100x96xf32>) -> tensor<100x96xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", grid_level = "core", grid = [50, 0, 0], tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<100x48xf32>, tensor<48x96xf32>) outs(%c : tensor<100x96xf32>) -> tensor<100x96xf32>
  return %r : tensor<100x96xf32>
}
