// The reference computes bf16/f16 programs in f32: narrow arguments are
// extended at entry, every op and body computes in f32, narrow results are
// truncated at the return; the signature stays. f32 functions are unchanged.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(strata-widen-floats))' | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(strata-widen-floats,linalg-generalize-named-ops))' | FileCheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @scale(
// CHECK-SAME:    %[[X:.*]]: tensor<8xbf16>, %[[S:.*]]: bf16) -> tensor<8xbf16>
// CHECK:         %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8xbf16>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[SW:.*]] = arith.extf %[[S]] : bf16 to f32
// CHECK:         %[[C:.*]] = arith.constant 1.250000e-01 : f32
// CHECK:         %[[E:.*]] = linalg.exp ins(%[[XW]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>) -> tensor<8xf32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[E]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xf32>)
// CHECK:         ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[M:.*]] = arith.mulf %[[A]], %[[C]] : f32
// CHECK:           arith.addf %[[M]], %[[SW]] : f32
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[G]] : tensor<8xf32>) outs(%{{.*}} : tensor<8xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         return %[[R]] : tensor<8xbf16>
#map = affine_map<(i) -> (i)>
func.func @scale(%x: tensor<8xbf16>, %s: bf16) -> tensor<8xbf16> {
  %c = arith.constant 0.125 : bf16
  %e = tensor.empty() : tensor<8xbf16>
  %y = linalg.exp ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%y : tensor<8xbf16>) outs(%e : tensor<8xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %m = arith.mulf %a, %c : bf16
    %n = arith.addf %m, %s : bf16
    linalg.yield %n : bf16
  } -> tensor<8xbf16>
  return %g : tensor<8xbf16>
}

// -----

// A mixed-precision matmul: its body's extension of the (now f32) operands
// disappears; the f32 result needs no conversion.
// CHECK-LABEL: func.func @mixed(
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK-NEXT:    return %[[M]] : tensor<4x4xf32>
// GEN-LABEL: func.func @mixed(
// GEN:         ^bb0(%[[I:.*]]: f32, %[[J:.*]]: f32, %[[O:.*]]: f32):
// GEN-NEXT:      %[[P:.*]] = arith.mulf %[[I]], %[[J]] : f32
// GEN-NEXT:      arith.addf %[[O]], %[[P]] : f32
func.func @mixed(%a: tensor<4x8xbf16>, %b: tensor<8x4xbf16>) -> tensor<4x4xf32> {
  %z = arith.constant dense<0.0> : tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xbf16>, tensor<8x4xbf16>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}

// -----

// f16, a dense constant, tensor ops and a loop carrying a narrow value; a
// truncation to f16 inside the body disappears with the f16 it produced.
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %{{.*}}: tensor<2x4xf16>) -> tensor<8xf16>
// CHECK:         arith.constant dense<{{.*}}> : tensor<8xf32>
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<2x4xf32> into tensor<8xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<8xf32>)
// CHECK-NOT:       arith.truncf
// CHECK:           linalg.add ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>)
// CHECK:           scf.yield %{{.*}} : tensor<8xf32>
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         return %{{.*}} : tensor<8xf16>
func.func @loop(%x: tensor<2x4xf16>) -> tensor<8xf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %bias = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %b16 = arith.truncf %bias : tensor<8xf32> to tensor<8xf16>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<2x4xf16> into tensor<8xf16>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %flat) -> (tensor<8xf16>) {
    %e = tensor.empty() : tensor<8xf16>
    %s = linalg.add ins(%acc, %b16 : tensor<8xf16>, tensor<8xf16>) outs(%e : tensor<8xf16>) -> tensor<8xf16>
    scf.yield %s : tensor<8xf16>
  }
  return %r : tensor<8xf16>
}

// -----

// f32 programs are left exactly as they are.
// CHECK-LABEL: func.func @f32(
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.exp ins(%{{.*}} : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK-NEXT:    return %[[R]] : tensor<4xf32>
func.func @f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
