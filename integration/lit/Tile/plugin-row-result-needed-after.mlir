// A softmax whose result is read transposed: the fused transpose reads the
// exponentials and the rows' reciprocal sums, so the row program (max,
// exp, sum, reciprocal) would have to write two results to DRAM. Row
// programs write one: the function is refused at compile time with the
// reason. It compiled and then failed at run time ("@case.1 reads @tmp0
// before any program writes it") once transposed reads took vectors.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: the tile target's row programs write one result; this op's is needed after the program too
// CHECK: error: the tile target runs @softmax_transposed as 2 programs; part 0 (starting with 'linalg.fill') is not lowered
func.func @softmax_transposed(%x: tensor<64x96xf32>) -> tensor<96x64xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %et = tensor.empty() : tensor<96x64xf32>
  %t = linalg.transpose ins(%s : tensor<64x96xf32>) outs(%et : tensor<96x64xf32>) permutation = [1, 0]
  return %t : tensor<96x64xf32>
}
