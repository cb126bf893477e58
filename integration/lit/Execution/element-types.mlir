// Element types other than f32, each with its tolerance.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: i32_elementwise: check result #0 (33x65xi32): relative error 0.00e+00 (tolerance 0.0e+00) PASS
// CHECK: i8_add: check result #0 (64xi8): relative error 0.00e+00 (tolerance 0.0e+00) PASS
// CHECK: i64_add: check result #0 (64xi64): relative error 0.00e+00 (tolerance 0.0e+00) PASS
// CHECK: i1_and: check result #0 (64xi1): relative error 0.00e+00 (tolerance 0.0e+00) PASS
// CHECK: f64_matmul: check result #0 (17x13xf64): relative error {{.*}} (tolerance 1.0e-10) PASS
// CHECK: f16_matmul: check result #0 (16x8xf16): relative error {{.*}} (tolerance 1.0e-02) PASS
// CHECK: f16_exp: check result #0 (64xf16): relative error {{.*}} (tolerance 1.0e-02) PASS
// CHECK: bf16_add: check result #0 (64xbf16): relative error {{.*}} (tolerance 2.0e-02) PASS
// CHECK-NOT: FAIL

#id = affine_map<(i, j) -> (i, j)>
#id1 = affine_map<(i) -> (i)>
func.func @i32_elementwise(%a: tensor<33x65xi32>, %b: tensor<33x65xi32>) -> tensor<33x65xi32> {
  %e = tensor.empty() : tensor<33x65xi32>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<33x65xi32>, tensor<33x65xi32>) outs(%e : tensor<33x65xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %m = arith.muli %x, %y : i32
    %s = arith.addi %m, %x : i32
    %mx = arith.maxsi %s, %y : i32
    linalg.yield %mx : i32
  } -> tensor<33x65xi32>
  return %g : tensor<33x65xi32>
}
func.func @i8_add(%a: tensor<64xi8>, %b: tensor<64xi8>) -> tensor<64xi8> {
  %e = tensor.empty() : tensor<64xi8>
  %c = linalg.add ins(%a, %b : tensor<64xi8>, tensor<64xi8>) outs(%e : tensor<64xi8>) -> tensor<64xi8>
  return %c : tensor<64xi8>
}
func.func @i64_add(%a: tensor<64xi64>, %b: tensor<64xi64>) -> tensor<64xi64> {
  %e = tensor.empty() : tensor<64xi64>
  %c = linalg.add ins(%a, %b : tensor<64xi64>, tensor<64xi64>) outs(%e : tensor<64xi64>) -> tensor<64xi64>
  return %c : tensor<64xi64>
}
func.func @i1_and(%a: tensor<64xi1>, %b: tensor<64xi1>) -> tensor<64xi1> {
  %e = tensor.empty() : tensor<64xi1>
  %g = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<64xi1>, tensor<64xi1>) outs(%e : tensor<64xi1>) {
  ^bb0(%x: i1, %y: i1, %o: i1):
    %r = arith.andi %x, %y : i1
    linalg.yield %r : i1
  } -> tensor<64xi1>
  return %g : tensor<64xi1>
}
func.func @f64_matmul(%a: tensor<17x31xf64>, %b: tensor<31x13xf64>) -> tensor<17x13xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<17x13xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<17x13xf64>) -> tensor<17x13xf64>
  %c = linalg.matmul ins(%a, %b : tensor<17x31xf64>, tensor<31x13xf64>) outs(%f : tensor<17x13xf64>) -> tensor<17x13xf64>
  return %c : tensor<17x13xf64>
}
func.func @f16_matmul(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>) -> tensor<16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x8xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<16x8xf16>) -> tensor<16x8xf16>
  %c = linalg.matmul ins(%a, %b : tensor<16x32xf16>, tensor<32x8xf16>) outs(%f : tensor<16x8xf16>) -> tensor<16x8xf16>
  return %c : tensor<16x8xf16>
}
func.func @f16_exp(%a: tensor<64xf16>) -> tensor<64xf16> {
  %e = tensor.empty() : tensor<64xf16>
  %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<64xf16>) outs(%e : tensor<64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = math.exp %x : f16
    linalg.yield %y : f16
  } -> tensor<64xf16>
  return %g : tensor<64xf16>
}
func.func @bf16_add(%a: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<64xbf16> {
  %e = tensor.empty() : tensor<64xbf16>
  %c = linalg.add ins(%a, %b : tensor<64xbf16>, tensor<64xbf16>) outs(%e : tensor<64xbf16>) -> tensor<64xbf16>
  return %c : tensor<64xbf16>
}
