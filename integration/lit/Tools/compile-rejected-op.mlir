// An op that no stage handles is reported at its location, and no artifact
// is written: ops outside the accepted dialects (rejected on input, every
// one of them), and an op of an accepted dialect that no lowering knows.
// RUN: rm -f %t.so
// RUN: not strata-compile %s -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: split-file %s %t
// RUN: not strata-compile %t/custom.mlir -o %t.so 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: test ! -e %t.so

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: compile-rejected-op.mlir:[[# @LINE + 1]]:8: error: 'gpu.block_id' is not accepted as input; expected ops of: affine, arith, bufferization, builtin, func, linalg, math, memref, scf, tensor, tosa, vector (and cf.assert)
  %b = gpu.block_id x
  // CHECK: compile-rejected-op.mlir:[[# @LINE + 1]]:3: error: 'llvm.call' is not accepted as input
  llvm.call @g() : () -> ()
  return %a : tensor<4xf32>
}
// CHECK: compile-rejected-op.mlir:[[# @LINE + 1]]:1: error: 'llvm.func' is not accepted as input
llvm.func @g()
// CHECK-NOT: error

// CUSTOM: custom.mlir:2:8: error: failed to legalize operation 'tosa.custom'

//--- custom.mlir
func.func @custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = tosa.custom %a {operator_name = "foo", domain_name = "bar", implementation_attrs = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
