// A row program with two results: x - max(x) is returned, and the row goes
// on (x scaled by its row sum, the last result). The step that makes the
// first packs each tile twice, into its row buffer and into a second
// output buffer the writer sends to DRAM before the row's last result.
// Before: "the tile
// target's row programs write one result; this op's is needed after the
// program too" (differential seed 406 cases 4 and 37, seed 409 case 49).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER-LABEL: tile.program @centered_and_scaled
// LOWER:         tile.dram_tensor @arg1 output
// LOWER:         tile.dram_tensor @arg2 output
// LOWER:         tile.circular_buffer @out1
// LOWER:         tile.pack_tile dst[%{{.*}}] -> @out1[
// LOWER:         tile.noc_write_tile {{.*}} -> @arg1[
// LOWER:         tile.noc_write_tile {{.*}} -> @arg2[

// CHECK: centered_and_scaled: check result #0 (61x256xf32): relative error {{.*}} PASS
// CHECK: centered_and_scaled: check result #1 (61x256xf32): relative error {{.*}} PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @centered_and_scaled(%x: tensor<61x256xf32>) -> (tensor<61x256xf32>, tensor<61x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<61xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<61xf32>) -> tensor<61xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<61x256xf32>) outs(%f : tensor<61xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<61xf32>
  %e2 = tensor.empty() : tensor<61x256xf32>
  %c = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<61x256xf32>, tensor<61xf32>) outs(%e2 : tensor<61x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<61x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e : tensor<61xf32>) -> tensor<61xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<61x256xf32>) outs(%f2 : tensor<61xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<61xf32>
  %e3 = tensor.empty() : tensor<61x256xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<61x256xf32>, tensor<61xf32>) outs(%e3 : tensor<61x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<61x256xf32>
  return %c, %y : tensor<61x256xf32>, tensor<61x256xf32>
}
