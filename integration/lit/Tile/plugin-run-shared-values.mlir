// Values with two readers, one of them the return, when a function runs as
// several programs (both failed at launch before: "@case has 2 input and 1
// output tensors; the launch gives 2 and 2", the value's program keeping
// it on chip):
// - a product also returned is not fused into its epilogue: the matmul's
//   program writes c, the ReLU's reads it back;
// - a row program's result also read by a later op of the run ends the
//   row program there: the softmax is written, the exp reads it back;
// - likewise a product returned through a reshape (it is written into a
//   view of the output; fused into its GELU, no program wrote output #1:
//   differential test seed 33, case 2).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER

// CHECK: program @relu_and_product.0: {{[0-9]+}} cycles
// CHECK: program @relu_and_product.1: {{[0-9]+}} cycles
// CHECK: relu_and_product: check result #0 (64x96xf32): relative error {{.*}} PASS
// CHECK: relu_and_product: check result #1 (64x96xf32): relative error {{.*}} PASS
// CHECK: softmax_and_exp: check result #0 (64x128xf32): relative error {{.*}} PASS
// CHECK: softmax_and_exp: check result #1 (64x128xf32): relative error {{.*}} PASS
// CHECK: reshaped_product: check result #0 (3x4x4x32xf32): relative error {{.*}} PASS
// CHECK: reshaped_product: check result #1 (3x4x4x32xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// LOWER: tile.program @relu_and_product.0
// LOWER: tile.program @relu_and_product.1
// LOWER: tile.program @softmax_and_exp.0
// LOWER: tile.program @softmax_and_exp.1
func.func @relu_and_product(%a: tensor<64x128xf32>, %b: tensor<128x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x96xf32>) outs(%f : tensor<64x96xf32>) -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<64x96xf32>) outs(%e2 : tensor<64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<64x96xf32>
  return %r, %c : tensor<64x96xf32>, tensor<64x96xf32>
}

func.func @softmax_and_exp(%x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %e = tensor.empty() : tensor<64x128xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %e2 = tensor.empty() : tensor<64x128xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<64x128xf32>) outs(%e2 : tensor<64x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = math.exp %in : f32
    linalg.yield %m : f32
  } -> tensor<64x128xf32>
  return %s, %t : tensor<64x128xf32>, tensor<64x128xf32>
}
func.func @reshaped_product(%a: tensor<3x16x32xf32>, %b: tensor<3x32x32xf32>) -> (tensor<3x4x4x32xf32>, tensor<3x4x4x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x16x32xf32>) -> tensor<3x16x32xf32>
  %p = linalg.batch_matmul ins(%a, %b : tensor<3x16x32xf32>, tensor<3x32x32xf32>) outs(%f : tensor<3x16x32xf32>) -> tensor<3x16x32xf32>
  %v = tensor.expand_shape %p [[0], [1, 2], [3]] output_shape [3, 4, 4, 32] : tensor<3x16x32xf32> into tensor<3x4x4x32xf32>
  %e2 = tensor.empty() : tensor<3x4x4x32xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<3x4x4x32xf32>) outs(%e2 : tensor<3x4x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %t = math.tanh %in : f32
    %s = arith.addf %one, %t : f32
    %x = arith.mulf %in, %h : f32
    %r = arith.mulf %x, %s : f32
    linalg.yield %r : f32
  } -> tensor<3x4x4x32xf32>
  return %g, %v : tensor<3x4x4x32xf32>, tensor<3x4x4x32xf32>
}
