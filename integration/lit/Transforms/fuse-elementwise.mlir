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

// A causal mask as PyTorch exports it: aranges of the query and key
// indices, their difference compared with 0, selected into 0 / -inf and
// added to the scores of one head (a unit dim, between the reshapes around
// the batched product). An op that reads no tensor (an arange) is a
// function of the loop indices and fuses into every consumer: the mask is
// index arithmetic in the scores' op and no 6x5 mask tensor exists. The
// unit dim is dropped and the reshapes around it cancel.
// CHECK-LABEL: func.func @causal_mask
// CHECK-NOT: tensor<6x5xi1>
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<2x6x5xf32>)
// CHECK-DAG: linalg.index 1
// CHECK-DAG: linalg.index 2
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return %[[S]] : tensor<2x6x5xf32>
func.func @causal_mask(%scores: tensor<2x6x5xf32>) -> tensor<2x6x5xf32> {
  %zero = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %fzero = arith.constant 0.0 : f32
  %e6 = tensor.empty() : tensor<6xi64>
  %rows = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e6 : tensor<6xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<6xi64>
  %e5 = tensor.empty() : tensor<5xi64>
  %cols = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%e5 : tensor<5xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<5xi64>
  %em = tensor.empty() : tensor<6x5xf32>
  %mask = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%cols, %rows : tensor<5xi64>, tensor<6xi64>) outs(%em : tensor<6x5xf32>) {
  ^bb0(%c: i64, %r: i64, %o: f32):
    %d = arith.subi %c, %r : i64
    %keep = arith.cmpi sle, %d, %zero : i64
    %v = arith.select %keep, %fzero, %ninf : f32
    linalg.yield %v : f32
  } -> tensor<6x5xf32>
  %s4 = tensor.expand_shape %scores [[0], [1, 2], [3]] output_shape [2, 1, 6, 5] : tensor<2x6x5xf32> into tensor<2x1x6x5xf32>
  %es = tensor.empty() : tensor<2x1x6x5xf32>
  %masked = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4, %mask : tensor<2x1x6x5xf32>, tensor<6x5xf32>) outs(%es : tensor<2x1x6x5xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x1x6x5xf32>
  %out = tensor.collapse_shape %masked [[0], [1, 2], [3]] : tensor<2x1x6x5xf32> into tensor<2x6x5xf32>
  return %out : tensor<2x6x5xf32>
}

// Batch and heads merged for the products (2 x 3 = 6): the scores' ops
// between the reshapes run on the merged loop (the mask reads neither), so
// the reshapes meet and cancel and the products' consumers are plain ops.
// CHECK-LABEL: func.func @merged_heads
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[S:.*]] = linalg.generic
// CHECK-SAME: ins(%arg0 : tensor<6x4x4xf32>) outs(%{{.*}} : tensor<6x4x4xf32>)
// CHECK: linalg.index 1
// CHECK: return %[[S]] : tensor<6x4x4xf32>
func.func @merged_heads(%scores: tensor<6x4x4xf32>) -> tensor<6x4x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %s4 = tensor.expand_shape %scores [[0, 1], [2], [3]] output_shape [2, 3, 4, 4] : tensor<6x4x4xf32> into tensor<2x3x4x4xf32>
  %e = tensor.empty() : tensor<2x3x4x4xf32>
  %masked = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s4 : tensor<2x3x4x4xf32>) outs(%e : tensor<2x3x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %keep = arith.cmpi sle, %j, %i : index
    %r = arith.select %keep, %a, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<2x3x4x4xf32>
  %out = tensor.collapse_shape %masked [[0, 1], [2], [3]] : tensor<2x3x4x4xf32> into tensor<6x4x4xf32>
  return %out : tensor<6x4x4xf32>
}
