// arith and math ops applied to whole tensors are accepted input and run.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: axpy: check result #0 (16x16xf32): relative error {{.*}} PASS
func.func @axpy(%x: tensor<16x16xf32>, %y: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %two = arith.constant dense<2.0> : tensor<16x16xf32>
  %ax = arith.mulf %x, %two : tensor<16x16xf32>
  %s = arith.addf %ax, %y : tensor<16x16xf32>
  %r = math.tanh %s : tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}
