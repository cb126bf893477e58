// Elementwise programs on the tile chip: a bf16 add, a bias add with ReLU
// on a shape that is not whole tiles, and exp(x) * y - z in f32.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// CHECK:      add: ran on tile-wormhole-n150
// CHECK-NEXT: cycle model (tile-wormhole-n150 at 1.00 GHz): {{[0-9]+}} cycles
// CHECK:        matrix engine: no tile matmuls
// CHECK:      add: check result #0 (512x512xbf16): relative error 0.00e+00 (tolerance 2.0e-02) PASS
// CHECK:      bias_relu: check result #0 (100x70xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK:      exp_mul_sub: check result #0 (256x128xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @add(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %e = tensor.empty() : tensor<512x512xbf16>
  %r = linalg.add ins(%a, %b : tensor<512x512xbf16>, tensor<512x512xbf16>) outs(%e : tensor<512x512xbf16>) -> tensor<512x512xbf16>
  return %r : tensor<512x512xbf16>
}
func.func @bias_relu(%x: tensor<100x70xf32>, %b: tensor<70xf32>) -> tensor<100x70xf32> {
  %e = tensor.empty() : tensor<100x70xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<100x70xf32>, tensor<70xf32>) outs(%e : tensor<100x70xf32>) {
  ^bb0(%xv: f32, %bv: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %xv, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}
func.func @exp_mul_sub(%x: tensor<256x128xf32>, %y: tensor<256x128xf32>, %z: tensor<256x128xf32>) -> tensor<256x128xf32> {
  %e = tensor.empty() : tensor<256x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y, %z : tensor<256x128xf32>, tensor<256x128xf32>, tensor<256x128xf32>) outs(%e : tensor<256x128xf32>) {
  ^bb0(%xv: f32, %yv: f32, %zv: f32, %o: f32):
    %ex = math.exp %xv : f32
    %m = arith.mulf %ex, %yv : f32
    %s = arith.subf %m, %zv : f32
    linalg.yield %s : f32
  } -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
