// A program that rounds its own values to bf16 is checked against the host
// reference (which computes them in f32) with bf16's tolerance, not f32's.
// RUN: strata-run %s --check | FileCheck %s

// CHECK: round_trip: check result #0 (64x128xf32): relative error {{.*}} (tolerance 2.0e-02) PASS

func.func @round_trip(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.truncf %a : f32 to bf16
    %w = arith.extf %n : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
