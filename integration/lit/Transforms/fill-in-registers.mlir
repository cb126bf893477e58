// A contraction whose cache tile holds the whole reduction (here K = 16,
// the L1 tile's 16) and whose output starts as a fill gets no separate
// fill pass: each register tile's accumulators start as the fill's value
// in registers, and the output is only stored. With a reduction longer
// than its tile (K = 32 in tiles of 16), the accumulators of later k tiles
// must read the output, so the fill stays outside the k loop.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-apply-schedule --canonicalize --cse | FileCheck %s

// CHECK-LABEL: func.func @whole_k
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<6x64xf32>
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c6
// CHECK-NOT: vector.transfer_read %{{.*}} vector<6x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<6x64xf32>)
// CHECK: vector.transfer_write %{{.*}} : vector<6x64xf32>, tensor<6x64xf32>
// CHECK-NOT: linalg.fill
// CHECK: return
func.func @whole_k(%a: tensor<24x16xf32>, %b: tensor<16x64xf32>) -> tensor<24x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x64xf32>) -> tensor<24x64xf32>
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], register = [6, 64, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<24x16xf32>, tensor<16x64xf32>) outs(%f : tensor<24x64xf32>) -> tensor<24x64xf32>
  return %r : tensor<24x64xf32>
}

// CHECK-LABEL: func.func @tiled_k
// CHECK: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK-NOT: linalg.fill
// CHECK: vector.transfer_read %{{.*}} vector<6x64xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c1 iter_args(%{{.*}}) -> (vector<6x64xf32>)
// CHECK: return
func.func @tiled_k(%a: tensor<24x32xf32>, %b: tensor<32x64xf32>) -> tensor<24x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x64xf32>) -> tensor<24x64xf32>
  %r = linalg.matmul {strata.schedule = #strata.schedule<{kind = "contraction", tiles = [{memory = "l2", sizes = [24, 64, 0]}, {memory = "l1", sizes = [0, 0, 16]}], tile_order = [1, 2, 0], register = [6, 64, 1], register_order = [1, 0, 2], vector_dim = 1, vector_width = 16}>}
      ins(%a, %b : tensor<24x32xf32>, tensor<32x64xf32>) outs(%f : tensor<24x64xf32>) -> tensor<24x64xf32>
  return %r : tensor<24x64xf32>
}
