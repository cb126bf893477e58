// A test written like MLIR's own: a pipeline of MLIR passes into
// mlir-runner, checked by FileCheck. The script runs it through Strata.
// DEFINE: %{pipeline} = -one-shot-bufferize="bufferize-function-boundaries" \
// DEFINE:   -test-lower-to-llvm
// RUN: mlir-opt %s %{pipeline} | \
// RUN: mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | \
// RUN: FileCheck %s --check-prefix=SUM
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.reduce ins(%a : tensor<2x2xf32>) outs(%f : tensor<2xf32>) dimensions = [0]
    (%x: f32, %acc: f32) { %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32 }
  %u = tensor.cast %s : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// SUM: Unranked Memref {{.*}} sizes = [2]
// SUM-NEXT: [4,  6]
