// A one-row matmul whose epilogue reads the matmul's own left operand
// (y = min(x @ w, x), x one row, so both the product's A and the
// epilogue's row-broadcast input): the program declares x's DRAM tensor
// once and reads it twice. It declared @arg0 twice ("redefinition of
// symbol named 'arg0'", differential seed 1333811021 case 16).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:     tile.program @case.1
// LOWER:     tile.dram_tensor @arg0 input
// LOWER-NOT: tile.dram_tensor @arg0
// LOWER:     tile.dram_tensor @arg1 input

// CHECK: case: check result #0 (1x96xf32): {{.*}} PASS
func.func @case(%a: tensor<1x96xf32>, %b: tensor<1x96xf32>, %w: tensor<96x96xf32>) -> tensor<1x96xf32> {
  %e1 = tensor.empty() : tensor<1x96xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<1x96xf32>, tensor<1x96xf32>) outs(%e1 : tensor<1x96xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.subf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<1x96xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x96xf32>) -> tensor<1x96xf32>
  %p = linalg.matmul ins(%x, %w : tensor<1x96xf32>, tensor<96x96xf32>) outs(%f : tensor<1x96xf32>) -> tensor<1x96xf32>
  %e3 = tensor.empty() : tensor<1x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %x : tensor<1x96xf32>, tensor<1x96xf32>) outs(%e3 : tensor<1x96xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.minimumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<1x96xf32>
  return %y : tensor<1x96xf32>
}
