// Ops the hierarchy path does not map are reported by name, never a crash.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy))"

// The accumulator is read twice: not one combining op.
func.func @not_a_fold(%x: memref<8x16xf32>, %s: memref<8xf32>) {
  // expected-error @+1 {{strata-map-hierarchy: 'linalg.generic' is not mapped to the levels of 'nvidia-h200' yet}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %acc, %acc : f32
    %r = arith.addf %sq, %v : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A reduction into f64: the butterfly moves 32 bits at most.
func.func @wide(%x: memref<8x16xf64>, %s: memref<8xf64>) {
  // expected-error @+1 {{strata-map-hierarchy: reductions of 'f64' are not mapped yet (32 bits at most)}}
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x16xf64>) outs(%s : memref<8xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %r = arith.addf %v, %acc : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// A reduction whose output skips a parallel loop (rows would race).
func.func @racy(%x: memref<8x16x4xf32>, %s: memref<8xf32>) {
  // expected-error @+1 {{'linalg.generic' is not mapped}}
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<8x16x4xf32>) outs(%s : memref<8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %v, %acc : f32
    linalg.yield %r : f32
  }
  return
}
