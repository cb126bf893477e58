// sin and cos on the host keep their accuracy outside the range the
// polynomial's f32 argument reduction serves: past 8192 in magnitude a
// vector is computed by f64 libm calls (a sin of 1e12 came out as 1e24),
// and a sin of |x| below 2^-12 is x (the polynomial's error near 0 is
// absolute, 6e-8: sin of values near 1e-9 was 6e7 times off in relative
// terms, differential seed 322 case 23).
// RUN: strata-run %s --target=host --check | FileCheck %s

// CHECK: sin_tiny: check result #0 (64xf32): relative error {{.*}} PASS
func.func @sin_tiny(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.constant 1.0e-9 : f32
    %y = arith.mulf %in, %s : f32
    %r = math.sin %y : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// CHECK: cos_large: check result #0 (64xf32): relative error {{.*}} PASS
func.func @cos_large(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.constant 1.0e12 : f32
    %y = arith.mulf %in, %s : f32
    %r = math.cos %y : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
