// Contractions into a scalar (linalg.dot, a rank-0 output) of short, prime
// and long vectors, and the named vector products linalg.matvec and
// linalg.vecmat: checked against the reference lowering. Every linalg.dot
// failed upstream's vector.contract verifier ("invalid accumulator/result
// vector shape"), found by MLIR's Linalg/CPU/test-one-shot-bufferize.mlir
// through strata-mlir-runner.
// RUN: strata-run %s --check | FileCheck %s

// CHECK-DAG: dot2: check result #0 (f32): relative error {{.*}} PASS
// CHECK-DAG: dot997: check result #0 (f32): relative error {{.*}} PASS
// CHECK-DAG: dot_accumulate: check result #0 (f32): relative error {{.*}} PASS
// CHECK-DAG: matvec: check result #0 (301xf32): relative error {{.*}} PASS
// CHECK-DAG: vecmat: check result #0 (299xf32): relative error {{.*}} PASS
func.func @dot2(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%x, %y : tensor<2xf32>, tensor<2xf32>) outs(%f : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}
func.func @dot997(%x: tensor<997xf32>, %y: tensor<997xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %d = linalg.dot ins(%x, %y : tensor<997xf32>, tensor<997xf32>) outs(%f : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}
func.func @dot_accumulate(%x: tensor<100000xf32>, %y: tensor<100000xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %d = linalg.dot ins(%x, %y : tensor<100000xf32>, tensor<100000xf32>) outs(%acc : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}
func.func @matvec(%a: tensor<301x67xf32>, %v: tensor<67xf32>) -> tensor<301xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<301xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<301xf32>) -> tensor<301xf32>
  %r = linalg.matvec ins(%a, %v : tensor<301x67xf32>, tensor<67xf32>) outs(%f : tensor<301xf32>) -> tensor<301xf32>
  return %r : tensor<301xf32>
}
func.func @vecmat(%v: tensor<67xf32>, %b: tensor<67x299xf32>) -> tensor<299xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<299xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<299xf32>) -> tensor<299xf32>
  %r = linalg.vecmat ins(%v, %b : tensor<67xf32>, tensor<67x299xf32>) outs(%f : tensor<299xf32>) -> tensor<299xf32>
  return %r : tensor<299xf32>
}
