// Functions named like C library functions (div, exp, abs) compute their
// own results: strata-emit-c-interface renames them (_strata_fn_<name>, internal
// to the library) and their wrappers keep the exported names. Before, the
// C interface wrapper of @div called the C library's div(), loaded first
// (the result and the reference were NaN), and the reference's libm exp
// call of an @exp called @exp itself (a crash).
// RUN: strata-run %s --target=host --check | FileCheck %s
// RUN: strata-compile %s --target=host --emit=llvm -o - | FileCheck %s --check-prefix=LL
// LL-NOT: define {{.*}}@div(
// LL-NOT: define {{.*}}@exp(
// LL: define void @_mlir_ciface_div(
// LL: define void @_mlir_ciface_exp(
// LL: define void @_mlir_ciface_abs(
// CHECK-DAG: div: check result #0 (64x64xf32): relative error {{.*}} PASS
// CHECK-DAG: exp: check result #0 (64x64xf32): relative error {{.*}} PASS
// CHECK-DAG: abs: check result #0 (64x64xf32): relative error {{.*}} PASS

#id = affine_map<(i, j) -> (i, j)>
func.func @div(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    %a = math.absf %v : f32
    %p = arith.addf %a, %one : f32
    %t = arith.divf %two, %p : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @exp(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @abs(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.absf %v : f32
    linalg.yield %t : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
