// PyTorch's safe softmax: a row whose scores are all -inf gives 0. The
// "some score is finite" flag of each row is an i1 tensor between two ops;
// it becomes i8 (extui where it is made, trunci where it is read), so both
// ops get schedules and join the attention's group.
// RUN: strata-opt %s --strata-widen-booleans --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @safe_softmax_tail
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<8xi8>)
// CHECK: %[[R:.*]] = linalg.generic
// CHECK-SAME: outs(%[[F]] : tensor<8xi8>)
// The or of the accumulator is made on bytes: still a reduction.
// CHECK: ^bb0(%{{.*}}: f32, %[[OUT:.*]]: i8):
// CHECK: %[[C:.*]] = arith.cmpf one
// CHECK: %[[W:.*]] = arith.extui %[[C]] : i1 to i8
// CHECK: %[[OR:.*]] = arith.ori %[[OUT]], %[[W]] : i8
// CHECK: linalg.yield %[[OR]] : i8
// CHECK: } -> tensor<8xi8>
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[R]], %{{.*}} : tensor<8xi8>, tensor<8x16xf32>)
// CHECK: ^bb0(%[[ANY:.*]]: i8,
// CHECK: %[[B:.*]] = arith.trunci %[[ANY]] : i8 to i1
// CHECK: arith.select %[[B]]
// CHECK-NOT: xi1>
func.func @safe_softmax_tail(%s: tensor<8x16xf32>, %p: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %false = arith.constant false
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xi1>
  %f = linalg.fill ins(%false : i1) outs(%e : tensor<8xi1>) -> tensor<8xi1>
  %any = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<8x16xf32>) outs(%f : tensor<8xi1>) {
  ^bb0(%x: f32, %o: i1):
    %masked = arith.cmpf one, %x, %ninf : f32
    %r = arith.ori %o, %masked : i1
    linalg.yield %r : i1
  } -> tensor<8xi1>
  %ep = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%any, %p : tensor<8xi1>, tensor<8x16xf32>) outs(%ep : tensor<8x16xf32>) {
  ^bb0(%a: i1, %v: f32, %o: f32):
    %r = arith.select %a, %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// A boolean a function returns keeps its type.
// CHECK-LABEL: func.func @returned
// CHECK: -> tensor<8xi1>
func.func @returned(%s: tensor<8xf32>) -> tensor<8xi1> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%s : tensor<8xf32>) outs(%e : tensor<8xi1>) {
  ^bb0(%x: f32, %o: i1):
    %c = arith.cmpf ogt, %x, %zero : f32
    linalg.yield %c : i1
  } -> tensor<8xi1>
  return %r : tensor<8xi1>
}

// A bool mask given as an argument is extended to bytes once, by an op of
// its own (which keeps the i1 input and no schedule); the scores' op reads
// the bytes.
// CHECK-LABEL: func.func @mask_argument
// CHECK: %[[W:.*]] = linalg.generic
// CHECK-SAME: ins(%arg1 : tensor<6x5xi1>) outs(%{{.*}} : tensor<6x5xi8>)
// CHECK: arith.extui %{{.*}} : i1 to i8
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %[[W]] : tensor<2x6x5xf32>, tensor<6x5xi8>)
// CHECK: arith.trunci %{{.*}} : i8 to i1
// CHECK: arith.select
func.func @mask_argument(%s: tensor<2x6x5xf32>, %m: tensor<6x5xi1>) -> tensor<2x6x5xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x6x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<2x6x5xf32>, tensor<6x5xi1>) outs(%e : tensor<2x6x5xf32>) {
  ^bb0(%x: f32, %keep: i1, %o: f32):
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x6x5xf32>
  return %r : tensor<2x6x5xf32>
}
