// With f64, the reference computes f32 in f64 (after bf16/f16 became f32):
// arguments are extended at entry, constants and bodies widened, results
// truncated at the return. Best effort: a function with an op that cannot
// be widened (a bitcast) is left in f32, without an error.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(strata-widen-floats,strata-widen-floats{f64=true}))' | FileCheck %s

// CHECK-LABEL: func.func @sum(
// CHECK-SAME:    %[[X:.*]]: tensor<1000xf32>) -> tensor<f32>
// CHECK:         %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1000xf32>) outs(%{{.*}} : tensor<1000xf64>)
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f64) outs(%{{.*}} : tensor<f64>)
// CHECK:         %[[R:.*]] = linalg.reduce ins(%[[XW]] : tensor<1000xf64>) outs(%[[F]] : tensor<f64>)
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f64
// CHECK:         %[[N:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<f64>) outs(%{{.*}} : tensor<f32>)
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK:         return %[[N]] : tensor<f32>
func.func @sum(%x: tensor<1000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<1000xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// -----

// bf16 becomes f32, then f64; at the boundary the conversions go through
// f32 (the host's runtime has no direct bf16 <-> f64 conversion).
// CHECK-LABEL: func.func @half(
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:    arith.extf %{{.*}} : f32 to f64
// CHECK:         linalg.exp ins(%{{.*}} : tensor<8xf64>)
// CHECK:         arith.truncf %{{.*}} : f64 to f32
// CHECK-NEXT:    arith.truncf %{{.*}} : f32 to bf16
func.func @half(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  %e = tensor.empty() : tensor<8xbf16>
  %y = linalg.exp ins(%x : tensor<8xbf16>) outs(%e : tensor<8xbf16>) -> tensor<8xbf16>
  return %y : tensor<8xbf16>
}

// -----

// CHECK-LABEL: func.func @bits(
// CHECK-NEXT:    arith.bitcast %{{.*}} : f32 to i32
// CHECK-NOT:     f64
func.func @bits(%x: f32) -> i32 {
  %b = arith.bitcast %x : f32 to i32
  return %b : i32
}
