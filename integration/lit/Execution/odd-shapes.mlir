// Sizes that divide by no vector width or tile: primes and one-off sizes.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: matmul_127x513x131: check result #0 (127x131xf32): relative error {{.*}} PASS
// CHECK: softmax_7x509: check result #0 (7x509xf32): relative error {{.*}} PASS
// CHECK: reduce_1x1: check result #0 (1xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL

func.func @matmul_127x513x131(%a: tensor<127x513xf32>, %b: tensor<513x131xf32>) -> tensor<127x131xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<127x131xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<127x131xf32>) -> tensor<127x131xf32>
  %c = linalg.matmul ins(%a, %b : tensor<127x513xf32>, tensor<513x131xf32>) outs(%f : tensor<127x131xf32>) -> tensor<127x131xf32>
  return %c : tensor<127x131xf32>
}

func.func @softmax_7x509(%x: tensor<7x509xf32>) -> tensor<7x509xf32> {
  %e = tensor.empty() : tensor<7x509xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<7x509xf32>) outs(%e : tensor<7x509xf32>) -> tensor<7x509xf32>
  return %y : tensor<7x509xf32>
}

func.func @reduce_1x1(%x: tensor<1x1xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %r = linalg.reduce ins(%x : tensor<1x1xf32>) outs(%f : tensor<1xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1xf32>
}
