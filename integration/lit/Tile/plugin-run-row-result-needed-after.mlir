// A softmax whose result is read transposed: the fused transpose reads the
// exponentials and the rows' reciprocal sums, so the row program (max,
// exp, sum, reciprocal) would have to write two results to DRAM. Row
// programs write one: the run of row ops is cut after the last writer of
// each buffer an op after the run reads, so the exponentials and the
// reciprocal sums are each a program's result (3 programs). It was
// refused ("row programs write one result; this op's is needed after the
// program too"), and before that failed at run time ("@case.1 reads
// @tmp0 before any program writes it").
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// CHECK: program @softmax_transposed.0:
// CHECK: program @softmax_transposed.1:
// CHECK: program @softmax_transposed.2:
// CHECK: softmax_transposed: check result #0 (96x64xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
func.func @softmax_transposed(%x: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %et = tensor.empty() : tensor<96x64xf32>
  %t = linalg.transpose ins(%s : tensor<64x96xf32>) outs(%et : tensor<96x64xf32>) permutation = [1, 0]
  return %t : tensor<96x64xf32>
}
