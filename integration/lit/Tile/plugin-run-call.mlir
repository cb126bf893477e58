// A call of the program's own function is inlined before the tile lowering
// and the callee's result, copied into the caller's output, is written
// there directly: one elementwise program, no copy (this was refused: "not
// lowered: func.call"). Both chips.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// LOWER-COUNT-1: tile.program
// LOWER-NOT: tile.program
// LOWER-NOT: func.call
// CHECK: caller: check result #0 (64x96xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#id = affine_map<(i, j) -> (i, j)>
func.func private @square_plus(%a: tensor<64x96xf32>, %b: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    %s = arith.addf %m, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

func.func @caller(%a: tensor<64x96xf32>, %b: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %r = func.call @square_plus(%a, %b) : (tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
