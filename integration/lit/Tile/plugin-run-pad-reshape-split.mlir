// A pad returned through expand_shape, in a function split into several
// programs (differential test seed 1010, case 6): the copy into the pad's
// interior writes a subview of the output's collapsed view. The copy's
// part cut that subview from the function's own collapse_shape, not from
// its output argument, and the program declared a tensor twice ("internal
// error: program @case.7 declares @arg3"). The part now clones the whole
// chain of views from its own argument.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// CHECK: case: check result #0 (2x3xf32): {{.*}} PASS
// CHECK: case: check result #1 (1x4x3x1xf32): {{.*}} PASS
// CHECK-NOT: FAIL
func.func @case(%arg0: tensor<3x2xf32>, %arg1: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<1x4x3x1xf32>) {
  %e1 = tensor.empty() : tensor<3x2xf32>
  %v2 = linalg.softmax dimension(0) ins(%arg0 : tensor<3x2xf32>) outs(%e1 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %e3 = tensor.empty() : tensor<3x2xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v2, %arg1 : tensor<3x2xf32>, tensor<3xf32>) outs(%e3 : tensor<3x2xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.minimumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %c5 = arith.constant -2.5 : f32
  %v6 = tensor.pad %v4 low[1, 0] high[0, 1] {
  ^bb0(%i0: index, %i1: index):
    tensor.yield %c5 : f32
  } : tensor<3x2xf32> to tensor<4x3xf32>
  %v7 = tensor.expand_shape %v6 [[0, 1], [2, 3]] output_shape [1, 4, 3, 1] : tensor<4x3xf32> into tensor<1x4x3x1xf32>
  %e8 = tensor.empty() : tensor<2x3xf32>
  %v9 = linalg.transpose ins(%v4 : tensor<3x2xf32>) outs(%e8 : tensor<2x3xf32>) permutation = [1, 0]
  %e10 = tensor.empty() : tensor<2x3xf32>
  %v11 = linalg.softmax dimension(1) ins(%v9 : tensor<2x3xf32>) outs(%e10 : tensor<2x3xf32>) -> tensor<2x3xf32>
  %e12 = tensor.empty() : tensor<2x3xf32>
  %v13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v11, %v9 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e12 : tensor<2x3xf32>) {
  ^bb0(%in0: f32, %in1: f32, %out: f32):
    %r = arith.minimumf %in0, %in1 : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  return %v13, %v7 : tensor<2x3xf32>, tensor<1x4x3x1xf32>
}
