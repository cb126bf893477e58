// strata-mlir-runner's entry function: its result printed as -entry-point-
// result says, transform-dialect schedules dropped (Strata schedules the
// program itself), and clear errors for what it cannot call.
// RUN: strata-mlir-runner %s -e answer -entry-point-result=i32 | FileCheck %s --check-prefix=I32
// RUN: strata-mlir-runner %s -e wide -entry-point-result=i64 | FileCheck %s --check-prefix=I64
// RUN: strata-mlir-runner %s -e sum -entry-point-result=f32 | FileCheck %s --check-prefix=F32
// RUN: not strata-mlir-runner %s -e takes_args 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not strata-mlir-runner %s -e answer 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not strata-mlir-runner %s -e answer -entry-point-result=f64 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata-mlir-runner %s -e missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not strata-mlir-runner %s -e answer -entry-point-result=i32 --target=tile-wormhole-n150 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not strata-mlir-runner %s -e answer -entry-point-result=i32 -shared-libs=%t.missing.so 2>&1 | FileCheck %s --check-prefix=LIB

// I32: 42
// I64: 9000000000
// F32: 1.000000e+01
// ARGS: mlir-runner-entry.mlir:[[@LINE+7]]:{{.*}}error: -e takes_args: the entry function takes no arguments; it takes 1
// RESULT: error: -e answer: returns '() -> i32', but -entry-point-result=void
// UNKNOWN: error: -entry-point-result: unknown type 'f64'; expected void, i32, i64 or f32
// MISSING: error: -e: '{{.*}}mlir-runner-entry.mlir' has no function with a body named 'missing'
// TARGET: error: --target=tile-wormhole-n150: the 'tile' plugin's code does not run in this process
// LIB: error: cannot load '{{.*}}missing.so'
module attributes {transform.with_named_sequence} {
  func.func @takes_args(%x: i32) -> i32 {
    return %x : i32
  }
  func.func @answer() -> i32 {
    %c = arith.constant 42 : i32
    return %c : i32
  }
  func.func @wide() -> i64 {
    %c = arith.constant 9000000000 : i64
    return %c : i64
  }
  func.func @sum() -> f32 {
    %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %s = linalg.reduce ins(%v : tensor<4xf32>) outs(%f : tensor<f32>) dimensions = [0]
      (%x: f32, %acc: f32) {
        %r = arith.addf %x, %acc : f32
        linalg.yield %r : f32
      }
    %r = tensor.extract %s[] : tensor<f32>
    return %r : f32
  }
  // A schedule for MLIR's own test pipeline: dropped whole (its ops were
  // erased one by one while later ones still used them: a heap corruption,
  // MLIR's Linalg/CPU/mmt4d.mlir).
  transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.reduce"]} in %module : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %m {isolated_from_above} : (!transform.any_op) -> !transform.op<"func.func">
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.op<"func.func">
    transform.yield
  }
  // A script in a module of its own: dropped with its module.
  module attributes {transform.with_named_sequence} {
    transform.named_sequence @__transform_main(%module: !transform.any_op {transform.readonly}) {
      transform.yield
    }
  }
}
