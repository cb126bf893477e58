// A whole bf16 sum of 21,632 values reduces in four row steps whose sums
// stay f32 and round to bf16 once, after the last (Transforms/
// row-reductions.mlir @bf16_whole_sum): rounded to bf16 after each step,
// the result was 6% off on both tile chips (differential seed 311 case 46).
// RUN: strata-run %s --target=tile-wormhole-n150 --check --seed=1198878369 | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check --seed=1198878369 | FileCheck %s

// CHECK: bf16_whole_sum: check result #0 (bf16): relative error {{.*}} PASS
func.func @bf16_whole_sum(%x: tensor<13x8x13x16xbf16>) -> tensor<bf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<bf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<bf16>) -> tensor<bf16>
  %r = linalg.reduce ins(%x : tensor<13x8x13x16xbf16>) outs(%f : tensor<bf16>) dimensions = [0, 1, 2, 3]
    (%in: bf16, %acc: bf16) {
      %s = arith.addf %in, %acc : bf16
      linalg.yield %s : bf16
    }
  return %r : tensor<bf16>
}
