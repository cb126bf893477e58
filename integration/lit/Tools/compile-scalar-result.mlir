// Results must be tensors, which become output arguments; a scalar result is
// reported at its function and nothing is written.
// RUN: rm -f %t.so %t.mlir
// RUN: not strata-compile %s -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: not strata-compile %s --emit=mlir -o %t.mlir 2>&1 | FileCheck %s
// RUN: test ! -e %t.mlir

// CHECK: compile-scalar-result.mlir:[[# @LINE + 1]]:1: error: still returns 1 value(s) after bufferization; expected results as output arguments
func.func @first(%a: tensor<4xf32>) -> f32 {
  %c = arith.constant 0 : index
  %e = tensor.extract %a[%c] : tensor<4xf32>
  return %e : f32
}
