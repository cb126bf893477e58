// Constants in an elementwise body are the vector engine's scalar operands
// (tile.unary_scalar): x * 0.5, 2 - x, x / 4, a clamp by min and max; a
// column vector c[i, 0] is read as tiles whose every column holds it.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.dram_tensor @arg1 input {host_shape = array<i64: 256, 1>, replicate_cols} : !tile.dram<256x32xf32, #tile.interleaved>
// LOWER: tile.unary_scalar mul dst[%c0], 5.000000e-01
// LOWER: tile.unary_scalar rsub dst[%c0], 2.000000e+00
// LOWER: tile.unary tanh dst[%c0]
// LOWER: tile.unary_scalar mul dst[%c1], 2.500000e-01
// LOWER: tile.unary_scalar min dst[%c1], 1.000000e+00
// LOWER: tile.unary_scalar max dst[%c1], -1.000000e+00
// LOWER: tile.binary_dst add dst[%c0], dst[%c1] -> dst[%c0]

// CHECK:      scalars: ran on tile-wormhole-n150
// CHECK:      scalars: check result #0 (256x256xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
func.func @scalars(%x: tensor<256x256xf32>, %c: tensor<256x1xf32>) -> tensor<256x256xf32> {
  %out = tensor.empty() : tensor<256x256xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<256x256xf32>, tensor<256x1xf32>) outs(%out : tensor<256x256xf32>) {
  ^bb0(%xv: f32, %cv: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %two = arith.constant 2.0 : f32
    %four = arith.constant 4.0 : f32
    %one = arith.constant 1.0 : f32
    %mone = arith.constant -1.0 : f32
    %h = arith.mulf %xv, %half : f32
    %r = arith.subf %two, %h : f32
    %t = math.tanh %r : f32
    %q = arith.divf %cv, %four : f32
    %lo = arith.minimumf %q, %one : f32
    %cl = arith.maximumf %lo, %mone : f32
    %s = arith.addf %t, %cl : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %y : tensor<256x256xf32>
}
