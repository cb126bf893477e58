// A bf16 dot on the tile chips: strata-row-reductions splits it into its
// products and their row sum, now both in f32 (the inputs extended, an f32
// accumulator, one rounding to bf16 at the end); the products were rounded
// to bf16 each, and a sum that cancels carried that: relative error 2.3e-2
// against bf16's 2e-2 (differential seed 505 case 36, known failure
// tile-bf16-dot-products-tolerance). The products' body extends its bf16
// inputs to f32, an exact cast the vector engine takes as the unpacked
// tile itself (@extend_inputs: it was refused, "'arith.extf' has no
// tile-engine equivalent").
// RUN: strata-run %s --target=tile-wormhole-n150 --check --seed=1106927442 | FileCheck %s
// CHECK: case: check result #0 (3x6x4x96xbf16): relative error {{.*}} PASS
// CHECK: case: check result #1 (bf16): relative error {{.*}} (tolerance 2.0e-02) PASS
// CHECK: extend_inputs: check result #0 (128x64xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
func.func @case(%arg0: tensor<1x32xbf16>, %arg1: tensor<128xbf16>, %arg2: tensor<128xbf16>, %arg3: tensor<3x13x8x17xbf16>, %arg4: tensor<3x1x17x96xbf16>) -> (tensor<3x6x4x96xbf16>, tensor<bf16>) {
  %e1 = tensor.empty() : tensor<1x32xbf16>
  %v2 = linalg.softmax dimension(1) ins(%arg0 : tensor<1x32xbf16>) outs(%e1 : tensor<1x32xbf16>) -> tensor<1x32xbf16>
  %e3 = tensor.empty() : tensor<32x1xbf16>
  %v4 = linalg.transpose ins(%v2 : tensor<1x32xbf16>) outs(%e3 : tensor<32x1xbf16>) permutation = [1, 0]
  %c5 = arith.constant 0.0 : bf16
  %e6 = tensor.empty() : tensor<bf16>
  %f7 = linalg.fill ins(%c5 : bf16) outs(%e6 : tensor<bf16>) -> tensor<bf16>
  %v8 = linalg.dot ins(%arg1, %arg2 : tensor<128xbf16>, tensor<128xbf16>) outs(%f7 : tensor<bf16>) -> tensor<bf16>
  %c9 = arith.constant 0.0 : bf16
  %e10 = tensor.empty() : tensor<3x6x4x96xbf16>
  %f11 = linalg.fill ins(%c9 : bf16) outs(%e10 : tensor<3x6x4x96xbf16>) -> tensor<3x6x4x96xbf16>
  %v12 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>} ins(%arg3, %arg4 : tensor<3x13x8x17xbf16>, tensor<3x1x17x96xbf16>) outs(%f11 : tensor<3x6x4x96xbf16>) -> tensor<3x6x4x96xbf16>
  return %v12, %v8 : tensor<3x6x4x96xbf16>, tensor<bf16>
}
func.func @extend_inputs(%a: tensor<128x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<128x64xf32> {
  %e = tensor.empty() : tensor<128x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<128x64xbf16>, tensor<128x64xbf16>) outs(%e : tensor<128x64xf32>) {
  ^bb0(%x: bf16, %y: bf16, %out: f32):
    %p = arith.extf %x : bf16 to f32
    %q = arith.extf %y : bf16 to f32
    %m = arith.mulf %p, %q : f32
    linalg.yield %m : f32
  } -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
