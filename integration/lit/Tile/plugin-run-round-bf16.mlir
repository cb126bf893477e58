// A body that rounds its own values to bf16 (arith.truncf to bf16 and back)
// runs on the vector engine as round_bf16 (the SFPU's round to nearest
// even); the extf back is the same value. It was refused: "'arith.truncf'
// has no tile-engine equivalent".
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=IR
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// IR: tile.unary_scalar mul
// IR-NEXT: tile.unary round_bf16 dst[%{{.*}}]
// IR-NEXT: tile.unary_scalar add
// CHECK: scaled: check result #0 (64x96xf32): relative error {{.*}} PASS
func.func @scaled(%x: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    %n = arith.truncf %m : f32 to bf16
    %w = arith.extf %n : bf16 to f32
    %s = arith.addf %w, %one : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}
