// A function split into programs whose elementwise part reads one buffer
// twice (max(x, x) of a batch_matmul's result, fused with the next op after
// bufferization, through a collapse): the part reads it as one DRAM tensor.
// Its function declared @arg0 twice ("redefinition of symbol named 'arg0'",
// differential seed 1960282585 case 35).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:     tile.program @case.1
// LOWER:     tile.dram_tensor @arg0 input
// LOWER-NOT: tile.dram_tensor @arg0
// LOWER:     tile.dram_tensor @arg1 input

// CHECK: case: check result #0 (122x64xf32): {{.*}} PASS
func.func @case(%a: tensor<2x61x96xf32>, %b: tensor<2x96x64xf32>, %y: tensor<122x64xf32>) -> tensor<122x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x61x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x61x64xf32>) -> tensor<2x61x64xf32>
  %p = linalg.batch_matmul ins(%a, %b : tensor<2x61x96xf32>, tensor<2x96x64xf32>) outs(%f : tensor<2x61x64xf32>) -> tensor<2x61x64xf32>
  %e1 = tensor.empty() : tensor<2x61x64xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p, %p : tensor<2x61x64xf32>, tensor<2x61x64xf32>) outs(%e1 : tensor<2x61x64xf32>) {
  ^bb0(%x: f32, %x2: f32, %out: f32):
    %r = arith.maximumf %x, %x2 : f32
    linalg.yield %r : f32
  } -> tensor<2x61x64xf32>
  %c = tensor.collapse_shape %m [[0, 1], [2]] : tensor<2x61x64xf32> into tensor<122x64xf32>
  %e2 = tensor.empty() : tensor<122x64xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %y : tensor<122x64xf32>, tensor<122x64xf32>) outs(%e2 : tensor<122x64xf32>) {
  ^bb0(%x: f32, %w: f32, %out: f32):
    %one = arith.constant 1.0 : f32
    %w2 = arith.mulf %w, %w : f32
    %den = arith.addf %one, %w2 : f32
    %r = arith.divf %x, %den : f32
    linalg.yield %r : f32
  } -> tensor<122x64xf32>
  return %d : tensor<122x64xf32>
}
