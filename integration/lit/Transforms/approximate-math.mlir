// RUN: strata-opt %s --strata-approximate-math --split-input-file | FileCheck %s

// f32 transcendentals, scalar or vector, become polynomial arithmetic.
// CHECK-LABEL: func.func @vector_f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.erf
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @vector_f32(%x: vector<16xf32>) -> vector<16xf32> {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %e : vector<16xf32>
  %r = math.erf %t : vector<16xf32>
  return %r : vector<16xf32>
}

// -----

// CHECK-LABEL: func.func @scalar_f32
// CHECK-NOT: math.log
// CHECK: return
func.func @scalar_f32(%x: f32) -> f32 {
  %l = math.log %x : f32
  return %l : f32
}

// -----

// Other element types keep their math ops (the approximations are f32's).
// CHECK-LABEL: func.func @f64_untouched
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.sqrt %{{.*}} : vector<4xf32>
func.func @f64_untouched(%x: f64, %y: vector<4xf32>) -> (f64, vector<4xf32>) {
  %e = math.exp %x : f64
  %s = math.sqrt %y : vector<4xf32>
  return %e, %s : f64, vector<4xf32>
}

// -----

// exp: clamp, k = roundeven(x * log2 e), r = x - k ln 2 in two steps, a
// degree-6 polynomial (doubled), times 2^(k-1) built in the exponent field.
// CHECK-LABEL: func.func @exp_lean
// CHECK: %[[LO:.*]] = arith.maximumf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: %[[X:.*]] = arith.minimumf %[[LO]], %{{.*}} : vector<8xf32>
// CHECK: %[[K:.*]] = math.roundeven %{{.*}} : vector<8xf32>
// CHECK-COUNT-8: math.fma
// CHECK: %[[I:.*]] = arith.fptosi %[[K]] : vector<8xf32> to vector<8xi32>
// CHECK: arith.addi %[[I]]
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.*}} : vector<8xi32> to vector<8xf32>
// CHECK-NOT: arith.select
// CHECK: return
func.func @exp_lean(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  return %e : vector<8xf32>
}

// -----

// sin and cos reduce their argument in f32, accurate while |x| is small:
// a vector with any lane past 8192 in magnitude (or NaN) takes f64 libm
// calls instead; the polynomial only runs in the other branch, where a sin
// of |x| below 2^-12 is x. Unguarded, a sin of 1e12 came out as 1e24, and
// sins near 1e-9 had an absolute error of 6e-8 (differential seed 322
// case 23).
// CHECK-LABEL: func.func @sin_large
// CHECK: %[[A:.*]] = math.absf %arg0 : vector<16xf32>
// CHECK: %[[L:.*]] = arith.cmpf ugt, %[[A]], %{{.*}} : vector<16xf32>
// CHECK: %[[ANY:.*]] = vector.reduction <or>, %[[L]] : vector<16xi1> into i1
// CHECK: scf.if %[[ANY]] -> (vector<16xf32>)
// CHECK:   arith.extf %arg0 : vector<16xf32> to vector<16xf64>
// CHECK:   math.sin %{{.*}} : vector<16xf64>
// CHECK:   arith.truncf %{{.*}} : vector<16xf64> to vector<16xf32>
// CHECK: } else {
// CHECK-NOT: math.sin
// CHECK:   math.fma
// CHECK:   %[[SMALL:.*]] = arith.cmpf olt, %[[A]], %{{.*}} : vector<16xf32>
// CHECK:   arith.select %[[SMALL]], %arg0, %{{.*}} : vector<16xi1>, vector<16xf32>
func.func @sin_large(%x: vector<16xf32>) -> vector<16xf32> {
  %s = math.sin %x : vector<16xf32>
  return %s : vector<16xf32>
}
