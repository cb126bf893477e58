// In a folder of tests for a CPU feature: not run.
// RUN: mlir-opt %s | mlir-runner -e main -entry-point-result=void | FileCheck %s
func.func @main() {
  return
}
