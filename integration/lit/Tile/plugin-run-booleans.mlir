// Booleans on the tile engines: comparisons with a constant are the
// vector engine's scalar compares (1.0 or 0.0), not is 1 - b, and a
// product, or a max, an any-reduction a row max, and arith.select its
// where_dst (a constant branch filled into a slot of its own).
// @attention_strict is PyTorch's causal attention export with a strict
// mask (key j < query i): row 0 has no key, so its softmax is NaN and
// PyTorch's safe-softmax tail (the "some score is not -inf" flag per row)
// makes it 0; 40 tokens pad the rows with -inf, which the flag ignores.
// Before, the tile target stopped at 'linalg.index' and at 'arith.cmpf'.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @attention_strict.4
// LOWER:         tile.unary_scalar eq dst[%{{.*}}], 0xFF800000
// LOWER-NEXT:    tile.unary_scalar rsub dst[%{{.*}}], 1.000000e+00
// LOWER:         tile.reduce max row
// LOWER:         tile.unary_scalar fill dst[%[[F:.*]]], 0.000000e+00
// LOWER:         tile.where_dst dst[%{{.*}}], dst[%{{.*}}], dst[%[[F]]] -> dst[%{{.*}}]
// LOWER-LABEL: tile.program @masks
// LOWER:         tile.unary_scalar gt dst[%{{.*}}], 2.500000e-01
// LOWER:         tile.unary_scalar ge dst[%{{.*}}], 7.500000e-01
// LOWER:         tile.binary_dst mul
// LOWER:         tile.unary_scalar ne dst[%{{.*}}], 0.000000e+00
// LOWER:         tile.binary_dst max
// LOWER:         tile.where_dst

// CHECK: attention_strict: check result #0 (2x1x40x32xf32): relative error {{.*}} PASS
func.func @attention_strict(%q: tensor<2x1x40x32xf32>, %k_t: tensor<2x1x32x40xf32>, %v0: tensor<2x1x40x32xf32>) -> tensor<2x1x40x32xf32> {
  %c = arith.constant 3.53553385e-01 : f32
  %c1 = arith.constant true
  %c2 = arith.constant 0 : i64
  %c3 = arith.constant 1 : i64
  %c4 = arith.constant 0xFF800000 : f32
  %c5 = arith.constant 0.00000000e+00 : f32
  %c6 = arith.constant false
  %empty = tensor.empty() : tensor<2x1x40x32xf32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<2x1x40x32xf32>) outs(%empty : tensor<2x1x40x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s0 = arith.mulf %in, %c : f32
    linalg.yield %s0 : f32
  } -> tensor<2x1x40x32xf32>
  %empty1 = tensor.empty() : tensor<40x40xi1>
  %fill = linalg.fill ins(%c1 : i1) outs(%empty1 : tensor<40x40xi1>) -> tensor<40x40xi1>
  %empty2 = tensor.empty() : tensor<40xi64>
  %arange = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%empty2 : tensor<40xi64>) {
  ^bb0(%out1: i64):
    %s1 = linalg.index 0 : index
    %s2 = arith.index_cast %s1 : index to i64
    %s3 = arith.muli %s2, %c3 : i64
    %s4 = arith.addi %c2, %s3 : i64
    linalg.yield %s4 : i64
  } -> tensor<40xi64>
  %empty3 = tensor.empty() : tensor<40xi64>
  %arange1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%empty3 : tensor<40xi64>) {
  ^bb0(%out2: i64):
    %s5 = linalg.index 0 : index
    %s6 = arith.index_cast %s5 : index to i64
    %s7 = arith.muli %s6, %c3 : i64
    %s8 = arith.addi %c2, %s7 : i64
    linalg.yield %s8 : i64
  } -> tensor<40xi64>
  %empty4 = tensor.empty() : tensor<40x40xi64>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arange, %arange1 : tensor<40xi64>, tensor<40xi64>) outs(%empty4 : tensor<40x40xi64>) {
  ^bb0(%in1: i64, %in2: i64, %out3: i64):
    %s9 = arith.subi %in1, %in2 : i64
    linalg.yield %s9 : i64
  } -> tensor<40x40xi64>
  %empty5 = tensor.empty() : tensor<40x40xi1>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v4 : tensor<40x40xi64>) outs(%empty5 : tensor<40x40xi1>) {
  ^bb0(%in3: i64, %out4: i1):
    %s10 = arith.cmpi slt, %in3, %c2 : i64
    linalg.yield %s10 : i1
  } -> tensor<40x40xi1>
  %empty6 = tensor.empty() : tensor<40x40xi1>
  %v6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v5, %fill : tensor<40x40xi1>, tensor<40x40xi1>) outs(%empty6 : tensor<40x40xi1>) {
  ^bb0(%in4: i1, %in5: i1, %out5: i1):
    %s11 = arith.andi %in4, %in5 : i1
    linalg.yield %s11 : i1
  } -> tensor<40x40xi1>
  %empty7 = tensor.empty() : tensor<f32>
  %fill1 = linalg.fill ins(%c4 : f32) outs(%empty7 : tensor<f32>) -> tensor<f32>
  %empty8 = tensor.empty() : tensor<f32>
  %fill2 = linalg.fill ins(%c5 : f32) outs(%empty8 : tensor<f32>) -> tensor<f32>
  %empty9 = tensor.empty() : tensor<40x40xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v6, %fill2, %fill1 : tensor<40x40xi1>, tensor<f32>, tensor<f32>) outs(%empty9 : tensor<40x40xf32>) {
  ^bb0(%in6: i1, %in7: f32, %in8: f32, %out6: f32):
    %s12 = arith.select %in6, %in7, %in8 : f32
    linalg.yield %s12 : f32
  } -> tensor<40x40xf32>
  %empty10 = tensor.empty() : tensor<2x1x32x40xf32>
  %v8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k_t : tensor<2x1x32x40xf32>) outs(%empty10 : tensor<2x1x32x40xf32>) {
  ^bb0(%in9: f32, %out7: f32):
    %s13 = arith.mulf %in9, %c : f32
    linalg.yield %s13 : f32
  } -> tensor<2x1x32x40xf32>
  %v9 = tensor.collapse_shape %v1 [[0], [1, 2], [3]] : tensor<2x1x40x32xf32> into tensor<2x40x32xf32>
  %v10 = tensor.collapse_shape %v8 [[0], [1, 2], [3]] : tensor<2x1x32x40xf32> into tensor<2x32x40xf32>
  %empty11 = tensor.empty() : tensor<2x40x40xf32>
  %fill3 = linalg.fill ins(%c5 : f32) outs(%empty11 : tensor<2x40x40xf32>) -> tensor<2x40x40xf32>
  %mm = linalg.batch_matmul ins(%v9, %v10 : tensor<2x40x32xf32>, tensor<2x32x40xf32>) outs(%fill3 : tensor<2x40x40xf32>) -> tensor<2x40x40xf32>
  %v11 = tensor.expand_shape %mm [[0], [1, 2], [3]] output_shape [2, 1, 40, 40] : tensor<2x40x40xf32> into tensor<2x1x40x40xf32>
  %empty12 = tensor.empty() : tensor<2x1x40x40xf32>
  %v12 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v11, %v7 : tensor<2x1x40x40xf32>, tensor<40x40xf32>) outs(%empty12 : tensor<2x1x40x40xf32>) {
  ^bb0(%in10: f32, %in11: f32, %out8: f32):
    %s14 = arith.addf %in10, %in11 : f32
    linalg.yield %s14 : f32
  } -> tensor<2x1x40x40xf32>
  %empty13 = tensor.empty() : tensor<2x1x40x40xf32>
  %softmax = linalg.softmax dimension(3) ins(%v12 : tensor<2x1x40x40xf32>) outs(%empty13 : tensor<2x1x40x40xf32>) -> tensor<2x1x40x40xf32>
  %empty14 = tensor.empty() : tensor<2x1x40x40xi1>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v12 : tensor<2x1x40x40xf32>) outs(%empty14 : tensor<2x1x40x40xi1>) {
  ^bb0(%in12: f32, %out9: i1):
    %s15 = arith.cmpf oeq, %in12, %c4 : f32
    linalg.yield %s15 : i1
  } -> tensor<2x1x40x40xi1>
  %empty15 = tensor.empty() : tensor<2x1x40x40xi1>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v13 : tensor<2x1x40x40xi1>) outs(%empty15 : tensor<2x1x40x40xi1>) {
  ^bb0(%in13: i1, %out10: i1):
    %s16 = arith.xori %in13, %c1 : i1
    linalg.yield %s16 : i1
  } -> tensor<2x1x40x40xi1>
  %empty16 = tensor.empty() : tensor<2x1x40xi1>
  %fill4 = linalg.fill ins(%c6 : i1) outs(%empty16 : tensor<2x1x40xi1>) -> tensor<2x1x40xi1>
  %red = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%v14 : tensor<2x1x40x40xi1>) outs(%fill4 : tensor<2x1x40xi1>) {
  ^bb0(%in14: i1, %out11: i1):
    %s17 = arith.ori %out11, %in14 : i1
    linalg.yield %s17 : i1
  } -> tensor<2x1x40xi1>
  %v15 = tensor.expand_shape %red [[0], [1], [2, 3]] output_shape [2, 1, 40, 1] : tensor<2x1x40xi1> into tensor<2x1x40x1xi1>
  %empty17 = tensor.empty() : tensor<2x1x40x1xi1>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v15 : tensor<2x1x40x1xi1>) outs(%empty17 : tensor<2x1x40x1xi1>) {
  ^bb0(%in15: i1, %out12: i1):
    %s18 = arith.xori %in15, %c1 : i1
    linalg.yield %s18 : i1
  } -> tensor<2x1x40x1xi1>
  %empty18 = tensor.empty() : tensor<2x1x40x40xf32>
  %fill5 = linalg.fill ins(%c5 : f32) outs(%empty18 : tensor<2x1x40x40xf32>) -> tensor<2x1x40x40xf32>
  %v17 = tensor.collapse_shape %v16 [[0], [1], [2, 3]] : tensor<2x1x40x1xi1> into tensor<2x1x40xi1>
  %empty19 = tensor.empty() : tensor<2x1x40x40xf32>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v17, %fill5, %softmax : tensor<2x1x40xi1>, tensor<2x1x40x40xf32>, tensor<2x1x40x40xf32>) outs(%empty19 : tensor<2x1x40x40xf32>) {
  ^bb0(%in16: i1, %in17: f32, %in18: f32, %out13: f32):
    %s19 = arith.select %in16, %in17, %in18 : f32
    linalg.yield %s19 : f32
  } -> tensor<2x1x40x40xf32>
  %v19 = tensor.collapse_shape %v18 [[0], [1, 2], [3]] : tensor<2x1x40x40xf32> into tensor<2x40x40xf32>
  %v20 = tensor.collapse_shape %v0 [[0], [1, 2], [3]] : tensor<2x1x40x32xf32> into tensor<2x40x32xf32>
  %empty20 = tensor.empty() : tensor<2x40x32xf32>
  %fill6 = linalg.fill ins(%c5 : f32) outs(%empty20 : tensor<2x40x32xf32>) -> tensor<2x40x32xf32>
  %mm1 = linalg.batch_matmul ins(%v19, %v20 : tensor<2x40x40xf32>, tensor<2x40x32xf32>) outs(%fill6 : tensor<2x40x32xf32>) -> tensor<2x40x32xf32>
  %v21 = tensor.expand_shape %mm1 [[0], [1, 2], [3]] output_shape [2, 1, 40, 32] : tensor<2x40x32xf32> into tensor<2x1x40x32xf32>
  return %v21 : tensor<2x1x40x32xf32>
}


// CHECK: masks: check result #0 (64x64xf32): relative error {{.*}} PASS
func.func @masks(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %lo = arith.constant 0.25 : f32
  %hi = arith.constant 0.75 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c1 = arith.cmpf ogt, %a, %lo : f32
    %c2 = arith.cmpf ole, %hi, %b : f32
    %both = arith.andi %c1, %c2 : i1
    %c3 = arith.cmpf une, %a, %zero : f32
    %any = arith.ori %both, %c3 : i1
    %p = arith.mulf %a, %b : f32
    %s = arith.select %any, %p, %b : f32
    %f = arith.uitofp %c1 : i1 to f32
    %t = arith.addf %s, %f : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Comparisons of two computed values are binary_dst's: the values above
// their row's mean, summed (a row program; before: "'arith.cmpf' has no
// tile-engine equivalent"), and an elementwise max written as a select.
// LOWER-LABEL: tile.program @sum_above_mean
// LOWER:         tile.binary_dst gt
// LOWER:         tile.where_dst
// LOWER-LABEL: tile.program @select_max
// LOWER:         tile.binary_dst ge
// LOWER:         tile.where_dst
// CHECK: sum_above_mean: check result #0 (64xf32): relative error {{.*}} PASS
func.func @sum_above_mean(%x: tensor<64x96xf32>, %mean: tensor<64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %mean : tensor<64x96xf32>, tensor<64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %above = arith.cmpf ogt, %a, %m : f32
    %v = arith.select %above, %a, %zero : f32
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// CHECK: select_max: check result #0 (64x64xf32): relative error {{.*}} PASS
func.func @select_max(%x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = arith.cmpf oge, %a, %b : f32
    %v = arith.select %c, %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
