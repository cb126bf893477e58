// Partial cache tiles of two parallel loops are both peeled, inner loops
// first: the last n tile (208 = 3 x 64 + 16) is a clone of the n loop's body
// whose m loop (100 = 4 x 24 + 4) is already peeled, so every tile has a
// static shape and no operand is copied into a padded buffer. Only B is
// packed (its k x n panel); A and C are read and written in place.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-apply-schedule --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-NOT: tensor<?x
// CHECK-NOT: x?x
// The full n tiles: packed B panels of 16 x 64, m tiles of 24 and of 4.
// CHECK: tensor.empty() : tensor<16x64xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// The last n tile, 16 wide, with both m tiles.
// CHECK: tensor.empty() : tensor<16x16xf32>
// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK-NOT: tensor<?x
// CHECK-NOT: x?x
// CHECK: return
func.func @matmul(%a: tensor<100x48xf32>, %b: tensor<48x208xf32>, %c: tensor<100x208xf32>) -> tensor<100x208xf32> {
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], promote = [1], register = [4, 32, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<100x48xf32>, tensor<48x208xf32>) outs(%c : tensor<100x208xf32>) -> tensor<100x208xf32>
  return %r : tensor<100x208xf32>
}
