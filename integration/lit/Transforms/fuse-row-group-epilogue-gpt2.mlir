// A GPT-2 block (2x32x64, exported through torch.compile's strata backend,
// as python/tests/test_dynamo.py does): its layer norms feed the attention
// and MLP projections as row groups whose epilogues (bias, GELU) fuse into
// the groups' row loops, which fusion replaces; the peeling of a partial
// last block then used the replaced loops and strata-compile crashed
// (use after free). Checked against the reference lowering.
// RUN: strata-run %s --check | FileCheck %s
// CHECK: graph: check result #0 (2x32x64xf32): relative error {{.*}} PASS
func.func @graph(%args_0: tensor<64xf32>, %args_1: tensor<64xf32>, %args_2: tensor<2x32x64xf32>, %args_3_t: tensor<64x192xf32>, %args_4: tensor<192xf32>, %args_5: tensor<1x1x64x64xf32>, %args_6_t: tensor<64x64xf32>, %args_7: tensor<64xf32>, %args_8: tensor<64xf32>, %args_9: tensor<64xf32>, %args_10_t: tensor<64x256xf32>, %args_11: tensor<256xf32>, %args_12_t: tensor<256x64xf32>, %args_13: tensor<64xf32>) -> tensor<2x32x64xf32> {
  %c = arith.constant 0.00000000e+00 : f32
  %c1 = arith.constant 6.40000000e+01 : f32
  %c2 = arith.constant 9.99999975e-06 : f32
  %c3 = arith.constant 2.50000000e-01 : f32
  %c4 = arith.constant 0xFF800000 : f32
  %c5 = arith.constant 5.00000000e-01 : f32
  %c6 = arith.constant 1.00000000e+00 : f32
  %c7 = arith.constant 4.47149985e-02 : f32
  %c8 = arith.constant 7.97884583e-01 : f32
  %empty = tensor.empty() : tensor<2x32xf32>
  %fill = linalg.fill ins(%c : f32) outs(%empty : tensor<2x32xf32>) -> tensor<2x32xf32>
  %red = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%args_2 : tensor<2x32x64xf32>) outs(%fill : tensor<2x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s0 = arith.addf %out, %in : f32
    linalg.yield %s0 : f32
  } -> tensor<2x32xf32>
  %v0 = tensor.expand_shape %red [[0], [1, 2]] output_shape [2, 32, 1] : tensor<2x32xf32> into tensor<2x32x1xf32>
  %empty1 = tensor.empty() : tensor<2x32x1xf32>
  %v1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v0 : tensor<2x32x1xf32>) outs(%empty1 : tensor<2x32x1xf32>) {
  ^bb0(%in1: f32, %out1: f32):
    %s1 = arith.divf %in1, %c1 : f32
    linalg.yield %s1 : f32
  } -> tensor<2x32x1xf32>
  %empty2 = tensor.empty() : tensor<2x32xf32>
  %fill1 = linalg.fill ins(%c : f32) outs(%empty2 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %v2 = tensor.collapse_shape %v1 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %sqdev = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%args_2, %v2 : tensor<2x32x64xf32>, tensor<2x32xf32>) outs(%fill1 : tensor<2x32xf32>) {
  ^bb0(%in2: f32, %in3: f32, %out2: f32):
    %s2 = arith.subf %in2, %in3 : f32
    %s3 = arith.mulf %s2, %s2 : f32
    %s4 = arith.addf %out2, %s3 : f32
    linalg.yield %s4 : f32
  } -> tensor<2x32xf32>
  %v3 = tensor.expand_shape %sqdev [[0], [1, 2]] output_shape [2, 32, 1] : tensor<2x32xf32> into tensor<2x32x1xf32>
  %empty3 = tensor.empty() : tensor<2x32x1xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v3 : tensor<2x32x1xf32>) outs(%empty3 : tensor<2x32x1xf32>) {
  ^bb0(%in4: f32, %out3: f32):
    %s5 = arith.divf %in4, %c1 : f32
    %s6 = arith.addf %s5, %c2 : f32
    %s7 = math.rsqrt %s6 : f32
    linalg.yield %s7 : f32
  } -> tensor<2x32x1xf32>
  %v5 = tensor.collapse_shape %v1 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %v6 = tensor.collapse_shape %v4 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %empty4 = tensor.empty() : tensor<2x32x64xf32>
  %v7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%args_2, %v5, %v6, %args_0, %args_1 : tensor<2x32x64xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<64xf32>, tensor<64xf32>) outs(%empty4 : tensor<2x32x64xf32>) {
  ^bb0(%in5: f32, %in6: f32, %in7: f32, %in8: f32, %in9: f32, %out4: f32):
    %s8 = arith.subf %in5, %in6 : f32
    %s9 = arith.mulf %s8, %in7 : f32
    %s10 = arith.mulf %s9, %in8 : f32
    %s11 = arith.addf %s10, %in9 : f32
    linalg.yield %s11 : f32
  } -> tensor<2x32x64xf32>
  %v8 = tensor.collapse_shape %v7 [[0, 1], [2]] : tensor<2x32x64xf32> into tensor<64x64xf32>
  %empty5 = tensor.empty() : tensor<64x192xf32>
  %fill2 = linalg.fill ins(%c : f32) outs(%empty5 : tensor<64x192xf32>) -> tensor<64x192xf32>
  %mm = linalg.matmul ins(%v8, %args_3_t : tensor<64x64xf32>, tensor<64x192xf32>) outs(%fill2 : tensor<64x192xf32>) -> tensor<64x192xf32>
  %empty6 = tensor.empty() : tensor<64x192xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %args_4 : tensor<64x192xf32>, tensor<192xf32>) outs(%empty6 : tensor<64x192xf32>) {
  ^bb0(%in10: f32, %in11: f32, %out5: f32):
    %s12 = arith.addf %in10, %in11 : f32
    linalg.yield %s12 : f32
  } -> tensor<64x192xf32>
  %v10 = tensor.expand_shape %v9 [[0, 1], [2]] output_shape [2, 32, 192] : tensor<64x192xf32> into tensor<2x32x192xf32>
  %slice = tensor.extract_slice %v10[0, 0, 0] [2, 32, 64] [1, 1, 1] : tensor<2x32x192xf32> to tensor<2x32x64xf32>
  %slice1 = tensor.extract_slice %v10[0, 0, 64] [2, 32, 64] [1, 1, 1] : tensor<2x32x192xf32> to tensor<2x32x64xf32>
  %slice2 = tensor.extract_slice %v10[0, 0, 128] [2, 32, 64] [1, 1, 1] : tensor<2x32x192xf32> to tensor<2x32x64xf32>
  %v11 = tensor.expand_shape %slice [[0], [1], [2, 3]] output_shape [2, 32, 4, 16] : tensor<2x32x64xf32> into tensor<2x32x4x16xf32>
  %empty7 = tensor.empty() : tensor<2x4x32x16xf32>
  %t = linalg.transpose ins(%v11 : tensor<2x32x4x16xf32>) outs(%empty7 : tensor<2x4x32x16xf32>) permutation = [0, 2, 1, 3]
  %v12 = tensor.expand_shape %slice1 [[0], [1], [2, 3]] output_shape [2, 32, 4, 16] : tensor<2x32x64xf32> into tensor<2x32x4x16xf32>
  %v13 = tensor.expand_shape %slice2 [[0], [1], [2, 3]] output_shape [2, 32, 4, 16] : tensor<2x32x64xf32> into tensor<2x32x4x16xf32>
  %empty9 = tensor.empty() : tensor<2x4x32x16xf32>
  %t2 = linalg.transpose ins(%v13 : tensor<2x32x4x16xf32>) outs(%empty9 : tensor<2x4x32x16xf32>) permutation = [0, 2, 1, 3]
  %empty10 = tensor.empty() : tensor<2x4x16x32xf32>
  %t3 = linalg.transpose ins(%v12 : tensor<2x32x4x16xf32>) outs(%empty10 : tensor<2x4x16x32xf32>) permutation = [0, 2, 3, 1]
  %v14 = tensor.collapse_shape %t [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
  %v15 = tensor.collapse_shape %t3 [[0, 1], [2], [3]] : tensor<2x4x16x32xf32> into tensor<8x16x32xf32>
  %empty11 = tensor.empty() : tensor<8x32x32xf32>
  %fill3 = linalg.fill ins(%c : f32) outs(%empty11 : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
  %mm1 = linalg.batch_matmul ins(%v14, %v15 : tensor<8x32x16xf32>, tensor<8x16x32xf32>) outs(%fill3 : tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
  %v16 = tensor.expand_shape %mm1 [[0, 1], [2], [3]] output_shape [2, 4, 32, 32] : tensor<8x32x32xf32> into tensor<2x4x32x32xf32>
  %empty12 = tensor.empty() : tensor<2x4x32x32xf32>
  %v17 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v16 : tensor<2x4x32x32xf32>) outs(%empty12 : tensor<2x4x32x32xf32>) {
  ^bb0(%in12: f32, %out6: f32):
    %s13 = arith.mulf %in12, %c3 : f32
    linalg.yield %s13 : f32
  } -> tensor<2x4x32x32xf32>
  %slice3 = tensor.extract_slice %args_5[0, 0, 0, 0] [1, 1, 32, 64] [1, 1, 1, 1] : tensor<1x1x64x64xf32> to tensor<1x1x32x64xf32>
  %slice4 = tensor.extract_slice %slice3[0, 0, 0, 0] [1, 1, 32, 32] [1, 1, 1, 1] : tensor<1x1x32x64xf32> to tensor<1x1x32x32xf32>
  %empty13 = tensor.empty() : tensor<1x1x32x32xi1>
  %v18 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%slice4 : tensor<1x1x32x32xf32>) outs(%empty13 : tensor<1x1x32x32xi1>) {
  ^bb0(%in13: f32, %out7: i1):
    %s14 = arith.cmpf oeq, %in13, %c : f32
    linalg.yield %s14 : i1
  } -> tensor<1x1x32x32xi1>
  %empty14 = tensor.empty() : tensor<f32>
  %fill4 = linalg.fill ins(%c4 : f32) outs(%empty14 : tensor<f32>) -> tensor<f32>
  %v19 = tensor.collapse_shape %v18 [[0, 1, 2], [3]] : tensor<1x1x32x32xi1> into tensor<32x32xi1>
  %empty15 = tensor.empty() : tensor<2x4x32x32xf32>
  %v20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v19, %fill4, %v17 : tensor<32x32xi1>, tensor<f32>, tensor<2x4x32x32xf32>) outs(%empty15 : tensor<2x4x32x32xf32>) {
  ^bb0(%in14: i1, %in15: f32, %in16: f32, %out8: f32):
    %s15 = arith.select %in14, %in15, %in16 : f32
    linalg.yield %s15 : f32
  } -> tensor<2x4x32x32xf32>
  %empty16 = tensor.empty() : tensor<2x4x32x32xf32>
  %softmax = linalg.softmax dimension(3) ins(%v20 : tensor<2x4x32x32xf32>) outs(%empty16 : tensor<2x4x32x32xf32>) -> tensor<2x4x32x32xf32>
  %v21 = tensor.collapse_shape %softmax [[0, 1], [2], [3]] : tensor<2x4x32x32xf32> into tensor<8x32x32xf32>
  %v22 = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<2x4x32x16xf32> into tensor<8x32x16xf32>
  %empty17 = tensor.empty() : tensor<8x32x16xf32>
  %fill5 = linalg.fill ins(%c : f32) outs(%empty17 : tensor<8x32x16xf32>) -> tensor<8x32x16xf32>
  %mm2 = linalg.batch_matmul ins(%v21, %v22 : tensor<8x32x32xf32>, tensor<8x32x16xf32>) outs(%fill5 : tensor<8x32x16xf32>) -> tensor<8x32x16xf32>
  %v23 = tensor.expand_shape %mm2 [[0, 1], [2], [3]] output_shape [2, 4, 32, 16] : tensor<8x32x16xf32> into tensor<2x4x32x16xf32>
  %empty18 = tensor.empty() : tensor<2x32x4x16xf32>
  %t4 = linalg.transpose ins(%v23 : tensor<2x4x32x16xf32>) outs(%empty18 : tensor<2x32x4x16xf32>) permutation = [0, 2, 1, 3]
  %v25 = tensor.collapse_shape %t4 [[0, 1], [2, 3]] : tensor<2x32x4x16xf32> into tensor<64x64xf32>
  %empty19 = tensor.empty() : tensor<64x64xf32>
  %fill6 = linalg.fill ins(%c : f32) outs(%empty19 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm3 = linalg.matmul ins(%v25, %args_6_t : tensor<64x64xf32>, tensor<64x64xf32>) outs(%fill6 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %empty20 = tensor.empty() : tensor<64x64xf32>
  %v26 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm3, %args_7 : tensor<64x64xf32>, tensor<64xf32>) outs(%empty20 : tensor<64x64xf32>) {
  ^bb0(%in17: f32, %in18: f32, %out9: f32):
    %s16 = arith.addf %in17, %in18 : f32
    linalg.yield %s16 : f32
  } -> tensor<64x64xf32>
  %v27 = tensor.expand_shape %v26 [[0, 1], [2]] output_shape [2, 32, 64] : tensor<64x64xf32> into tensor<2x32x64xf32>
  %empty21 = tensor.empty() : tensor<2x32x64xf32>
  %v28 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%args_2, %v27 : tensor<2x32x64xf32>, tensor<2x32x64xf32>) outs(%empty21 : tensor<2x32x64xf32>) {
  ^bb0(%in19: f32, %in20: f32, %out10: f32):
    %s17 = arith.addf %in19, %in20 : f32
    linalg.yield %s17 : f32
  } -> tensor<2x32x64xf32>
  %empty22 = tensor.empty() : tensor<2x32xf32>
  %fill7 = linalg.fill ins(%c : f32) outs(%empty22 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %red1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v28 : tensor<2x32x64xf32>) outs(%fill7 : tensor<2x32xf32>) {
  ^bb0(%in21: f32, %out11: f32):
    %s18 = arith.addf %out11, %in21 : f32
    linalg.yield %s18 : f32
  } -> tensor<2x32xf32>
  %v29 = tensor.expand_shape %red1 [[0], [1, 2]] output_shape [2, 32, 1] : tensor<2x32xf32> into tensor<2x32x1xf32>
  %empty23 = tensor.empty() : tensor<2x32x1xf32>
  %v30 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v29 : tensor<2x32x1xf32>) outs(%empty23 : tensor<2x32x1xf32>) {
  ^bb0(%in22: f32, %out12: f32):
    %s19 = arith.divf %in22, %c1 : f32
    linalg.yield %s19 : f32
  } -> tensor<2x32x1xf32>
  %empty24 = tensor.empty() : tensor<2x32xf32>
  %fill8 = linalg.fill ins(%c : f32) outs(%empty24 : tensor<2x32xf32>) -> tensor<2x32xf32>
  %v31 = tensor.collapse_shape %v30 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %sqdev1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v28, %v31 : tensor<2x32x64xf32>, tensor<2x32xf32>) outs(%fill8 : tensor<2x32xf32>) {
  ^bb0(%in23: f32, %in24: f32, %out13: f32):
    %s20 = arith.subf %in23, %in24 : f32
    %s21 = arith.mulf %s20, %s20 : f32
    %s22 = arith.addf %out13, %s21 : f32
    linalg.yield %s22 : f32
  } -> tensor<2x32xf32>
  %v32 = tensor.expand_shape %sqdev1 [[0], [1, 2]] output_shape [2, 32, 1] : tensor<2x32xf32> into tensor<2x32x1xf32>
  %empty25 = tensor.empty() : tensor<2x32x1xf32>
  %v33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v32 : tensor<2x32x1xf32>) outs(%empty25 : tensor<2x32x1xf32>) {
  ^bb0(%in25: f32, %out14: f32):
    %s23 = arith.divf %in25, %c1 : f32
    %s24 = arith.addf %s23, %c2 : f32
    %s25 = math.rsqrt %s24 : f32
    linalg.yield %s25 : f32
  } -> tensor<2x32x1xf32>
  %v34 = tensor.collapse_shape %v30 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %v35 = tensor.collapse_shape %v33 [[0], [1, 2]] : tensor<2x32x1xf32> into tensor<2x32xf32>
  %empty26 = tensor.empty() : tensor<2x32x64xf32>
  %v36 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v28, %v34, %v35, %args_8, %args_9 : tensor<2x32x64xf32>, tensor<2x32xf32>, tensor<2x32xf32>, tensor<64xf32>, tensor<64xf32>) outs(%empty26 : tensor<2x32x64xf32>) {
  ^bb0(%in26: f32, %in27: f32, %in28: f32, %in29: f32, %in30: f32, %out15: f32):
    %s26 = arith.subf %in26, %in27 : f32
    %s27 = arith.mulf %s26, %in28 : f32
    %s28 = arith.mulf %s27, %in29 : f32
    %s29 = arith.addf %s28, %in30 : f32
    linalg.yield %s29 : f32
  } -> tensor<2x32x64xf32>
  %v37 = tensor.collapse_shape %v36 [[0, 1], [2]] : tensor<2x32x64xf32> into tensor<64x64xf32>
  %empty27 = tensor.empty() : tensor<64x256xf32>
  %fill9 = linalg.fill ins(%c : f32) outs(%empty27 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mm4 = linalg.matmul ins(%v37, %args_10_t : tensor<64x64xf32>, tensor<64x256xf32>) outs(%fill9 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %empty28 = tensor.empty() : tensor<64x256xf32>
  %v38 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm4, %args_11 : tensor<64x256xf32>, tensor<256xf32>) outs(%empty28 : tensor<64x256xf32>) {
  ^bb0(%in31: f32, %in32: f32, %out16: f32):
    %s30 = arith.addf %in31, %in32 : f32
    linalg.yield %s30 : f32
  } -> tensor<64x256xf32>
  %v39 = tensor.expand_shape %v38 [[0, 1], [2]] output_shape [2, 32, 256] : tensor<64x256xf32> into tensor<2x32x256xf32>
  %empty29 = tensor.empty() : tensor<2x32x256xf32>
  %v40 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v39 : tensor<2x32x256xf32>) outs(%empty29 : tensor<2x32x256xf32>) {
  ^bb0(%in33: f32, %out17: f32):
    %s31 = arith.mulf %in33, %in33 : f32
    %s32 = arith.mulf %s31, %in33 : f32
    %s33 = arith.mulf %s32, %c7 : f32
    %s34 = arith.addf %in33, %s33 : f32
    %s35 = arith.mulf %s34, %c8 : f32
    %s36 = math.tanh %s35 : f32
    %s37 = arith.mulf %in33, %c5 : f32
    %s38 = arith.addf %c6, %s36 : f32
    %s39 = arith.mulf %s37, %s38 : f32
    linalg.yield %s39 : f32
  } -> tensor<2x32x256xf32>
  %v41 = tensor.collapse_shape %v40 [[0, 1], [2]] : tensor<2x32x256xf32> into tensor<64x256xf32>
  %empty30 = tensor.empty() : tensor<64x64xf32>
  %fill10 = linalg.fill ins(%c : f32) outs(%empty30 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm5 = linalg.matmul ins(%v41, %args_12_t : tensor<64x256xf32>, tensor<256x64xf32>) outs(%fill10 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %empty31 = tensor.empty() : tensor<64x64xf32>
  %v42 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm5, %args_13 : tensor<64x64xf32>, tensor<64xf32>) outs(%empty31 : tensor<64x64xf32>) {
  ^bb0(%in34: f32, %in35: f32, %out18: f32):
    %s40 = arith.addf %in34, %in35 : f32
    linalg.yield %s40 : f32
  } -> tensor<64x64xf32>
  %v43 = tensor.expand_shape %v42 [[0, 1], [2]] output_shape [2, 32, 64] : tensor<64x64xf32> into tensor<2x32x64xf32>
  %empty32 = tensor.empty() : tensor<2x32x64xf32>
  %v44 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v28, %v43 : tensor<2x32x64xf32>, tensor<2x32x64xf32>) outs(%empty32 : tensor<2x32x64xf32>) {
  ^bb0(%in36: f32, %in37: f32, %out19: f32):
    %s41 = arith.addf %in36, %in37 : f32
    linalg.yield %s41 : f32
  } -> tensor<2x32x64xf32>
  return %v44 : tensor<2x32x64xf32>
}
