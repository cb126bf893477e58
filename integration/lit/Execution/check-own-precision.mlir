// strata-run --check allows a result the error of the program's own
// precision several times over: the reference of that precision computes
// in the program's types with the f32 inputs of products cut to the bits
// the chip's matrix unit keeps (tf32 on the tile chips). Here exp turns
// the product's absolute error (x up to about 5) into a relative one of
// 3e-3, past the 2.5e-3 a single tf32 product is allowed; the host, which
// keeps f32 whole, is held to f32's 1e-4 (differential seed 424242 case 0).
// RUN: strata-run %s --target=tile-wormhole-n150 --check --seed=221647044 | FileCheck %s
// RUN: strata-run %s --target=host --check --seed=221647044 | FileCheck %s --check-prefix=HOST

// CHECK: case: check result #0 (64x31x1xf32): relative error {{.*}} (tolerance {{.*}}: 4x the error {{.*}} of the program in its own precision) PASS
// HOST: case: check result #0 (64x31x1xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
func.func @case(%arg0: tensor<64x31xf32>, %arg1: tensor<31x31xf32>, %arg2: tensor<64x1x64xf32>) -> tensor<64x31x1xf32> {
  %c1 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<64x31xf32>
  %f3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<64x31xf32>) -> tensor<64x31xf32>
  %v4 = linalg.matmul ins(%arg0, %arg1 : tensor<64x31xf32>, tensor<31x31xf32>) outs(%f3 : tensor<64x31xf32>) -> tensor<64x31xf32>
  %v5 = tensor.expand_shape %v4 [[0], [1, 2]] output_shape [64, 31, 1] : tensor<64x31xf32> into tensor<64x31x1xf32>
  %e6 = tensor.empty() : tensor<64x31x1xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v5 : tensor<64x31x1xf32>) outs(%e6 : tensor<64x31x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %r = math.exp %in0 : f32
    linalg.yield %r : f32
  } -> tensor<64x31x1xf32>
  %e8 = tensor.empty() : tensor<64x31x1xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v7 : tensor<64x31x1xf32>) outs(%e8 : tensor<64x31x1xf32>) {
  ^bb0(%in0: f32, %out: f32):
    %s = arith.constant 3.051758e-05 : f32
    %r = arith.mulf %in0, %s : f32
    linalg.yield %r : f32
  } -> tensor<64x31x1xf32>
  return %v9 : tensor<64x31x1xf32>
}
