// math.log on the vector engine (tile.unary log; its cost from the
// description's vector_instructions "log", the length of the SFPU's log
// routine): a log-sum-exp-style body, log(exp(x) + 1) (softplus), on a shape
// that is not whole tiles. It was refused: "'math.log' has no tile-engine
// equivalent". Both chips.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// LOWER: tile.unary exp
// LOWER: tile.unary log
// CHECK: softplus: check result #0 (70x100xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#id = affine_map<(i, j) -> (i, j)>
func.func @softplus(%x: tensor<70x100xf32>) -> tensor<70x100xf32> {
  %e = tensor.empty() : tensor<70x100xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<70x100xf32>) outs(%e : tensor<70x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %ex = math.exp %a : f32
    %s = arith.addf %ex, %one : f32
    %l = math.log %s : f32
    linalg.yield %l : f32
  } -> tensor<70x100xf32>
  return %r : tensor<70x100xf32>
}
