// A transpose of matrices that are not whole tiles runs padded: zeros in,
// the result's padding dropped (a 1000x37 and a 24x32 matrix, and a batch
// of five 70x33 matrices, each padded in its share of the rows; all were
// refused before). Both chips.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// CHECK: tall: check result #0 (37x1000xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: short: check result #0 (32x24xbf16): relative error 0.00e+00 (tolerance 2.0e-02) PASS
// CHECK: batch: check result #0 (5x33x70xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
func.func @tall(%a: tensor<1000x37xf32>) -> tensor<37x1000xf32> {
  %e = tensor.empty() : tensor<37x1000xf32>
  %t = linalg.transpose ins(%a : tensor<1000x37xf32>) outs(%e : tensor<37x1000xf32>) permutation = [1, 0]
  return %t : tensor<37x1000xf32>
}
func.func @short(%a: tensor<24x32xbf16>) -> tensor<32x24xbf16> {
  %e = tensor.empty() : tensor<32x24xbf16>
  %t = linalg.transpose ins(%a : tensor<24x32xbf16>) outs(%e : tensor<32x24xbf16>) permutation = [1, 0]
  return %t : tensor<32x24xbf16>
}
func.func @batch(%a: tensor<5x70x33xf32>) -> tensor<5x33x70xf32> {
  %e = tensor.empty() : tensor<5x33x70xf32>
  %t = linalg.transpose ins(%a : tensor<5x70x33xf32>) outs(%e : tensor<5x33x70xf32>) permutation = [0, 2, 1]
  return %t : tensor<5x33x70xf32>
}
