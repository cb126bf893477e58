// A row reduction over a row of 261 f32 tiles (1 MiB): two rows of the
// input, the reader's double buffer, would take 2.1 MiB of the 1.43 MiB of
// L1, so the input keeps one row (the core's model holds one). It was
// lowered with two and stopped in the verifier: "'tile.circular_buffer'
// op does not fit in L1" (differential seed 77 case 57).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// LOWER: tile.circular_buffer @in0 {{.*}} : !tile.cb<261x!tile.tile<32x32xf32>>
// CHECK: row_max: check result #0 (f32): relative error {{.*}} PASS
func.func @row_max(%x: tensor<8324xf32>) -> tensor<f32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %m = linalg.reduce ins(%x : tensor<8324xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %m : tensor<f32>
}
