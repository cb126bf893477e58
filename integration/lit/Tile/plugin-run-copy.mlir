// Copies, which S3 does not schedule, run as the elementwise program with
// one tile buffered twice: a linalg.copy of the program's own and the copy
// the entry points add for a result returned twice (this was refused: "the
// tile target needs the op's scratchpad schedule"). Both chips.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// CHECK: twice: check result #0 (4x8xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: twice: check result #1 (4x8xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: copy_3d: check result #0 (3x40x50xbf16): relative error 0.00e+00 (tolerance 2.0e-02) PASS
func.func @twice(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %g = linalg.copy ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g, %g : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @copy_3d(%a: tensor<3x40x50xbf16>) -> tensor<3x40x50xbf16> {
  %e = tensor.empty() : tensor<3x40x50xbf16>
  %g = linalg.copy ins(%a : tensor<3x40x50xbf16>) outs(%e : tensor<3x40x50xbf16>) -> tensor<3x40x50xbf16>
  return %g : tensor<3x40x50xbf16>
}
