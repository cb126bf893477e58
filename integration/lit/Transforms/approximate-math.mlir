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
