// Elementwise chains merge into one op: a producer with no other user, or
// one that only moves data (a broadcast, here used twice), fuses into its
// consumer. A producer used twice that computes (the exponential) stays, and
// a contraction keeps its own body.
// RUN: strata-opt %s --strata-fuse-elementwise | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-NOT: linalg.broadcast
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: ins(%arg0, %arg1, %arg2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16xf32>)
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %s: tensor<16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %sb = linalg.broadcast ins(%s : tensor<16xf32>) outs(%e : tensor<8x16xf32>) dimensions = [0]
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d, %sb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %sb : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %a : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @shared_exp
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[E]] : tensor<8x16xf32>)
// CHECK-NOT: math.exp
// CHECK: arith.addf
#row = affine_map<(i, j) -> (i)>
func.func @shared_exp(%x: tensor<8x16xf32>, %z: tensor<8xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x2 : tensor<8x16xf32>) outs(%z : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %x2, %s : tensor<8x16xf32>, tensor<8xf32>
}

// CHECK-LABEL: func.func @scaled_matmul
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.matmul
func.func @scaled_matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>, %c: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %two = arith.constant 2.0 : f32
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %m = linalg.matmul ins(%s, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %m : tensor<8x4xf32>
}
