// An op this LLVM no longer has: mlir-opt rejects the file too.
// RUN: mlir-opt %s | mlir-runner -e main -entry-point-result=void | FileCheck %s
func.func @main() {
  %0 = tosa.no_such_op : () -> tensor<1xf32>
  return
}
// CHECK: nothing
