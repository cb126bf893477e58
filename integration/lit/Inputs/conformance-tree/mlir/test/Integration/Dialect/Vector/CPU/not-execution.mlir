// No mlir-runner: not an execution test.
// RUN: mlir-opt %s | FileCheck %s
// CHECK: func.func @f
func.func @f() {
  return
}
