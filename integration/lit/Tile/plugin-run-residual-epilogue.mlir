// A product followed by an elementwise op that reads a matrix besides it
// (a residual: y = x W + r) was refused ("the tile target's matmul
// epilogue reads vectors broadcast along rows (a bias); input #1 is not
// one"). The product program's epilogue takes biases only, so such an op
// is an elementwise program of its own after the product's; a bias still
// fuses (one program).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER

// CHECK: residual: check result #0 (64x96xf32): relative error {{.*}} PASS
// CHECK: bias: check result #0 (64x96xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// LOWER: tile.program @residual.0
// LOWER: tile.program @residual.1
// LOWER: tile.program @bias {
func.func @residual(%x: tensor<64x128xf32>, %w: tensor<128x96xf32>, %r: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %p = linalg.matmul ins(%x, %w : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<64x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %r : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e2 : tensor<64x96xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}
func.func @bias(%x: tensor<64x128xf32>, %w: tensor<128x96xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %p = linalg.matmul ins(%x, %w : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<64x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p, %b : tensor<64x96xf32>, tensor<96xf32>) outs(%e2 : tensor<64x96xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}
