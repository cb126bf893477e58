// A matmul that is one cache tile on one core, with rows (128) that are no
// multiple of the register tile's (6 on AVX-512): the partial register tile
// is peeled and the tile's loops yield their own destination. (Padding the
// output instead made the k loop yield a slice of the padded buffer, which
// failed to bufferize.)
// RUN: taskset -c 0 strata-run %s --check | FileCheck %s
// RUN: strata-run %s --check | FileCheck %s

// CHECK: matmul_128x512x192: check result #0 (128x192xf32): relative error {{.*}} PASS
// A single row whose last n tile (104 columns) is padded to whole vectors,
// with a bias epilogue: the padded tile is copied back into its destination
// (a linalg.copy there folded away, and the k loop yielded the padded slice).
// CHECK: linear_1x512x1000: check result #0 (1x1000xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
func.func @matmul_128x512x192(%a: tensor<128x512xf32>, %b: tensor<512x192xf32>) -> tensor<128x192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x192xf32>) -> tensor<128x192xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x192xf32>) outs(%f : tensor<128x192xf32>) -> tensor<128x192xf32>
  return %c : tensor<128x192xf32>
}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @linear_1x512x1000(%x: tensor<1x512xf32>, %w: tensor<512x1000xf32>, %b: tensor<1000xf32>) -> tensor<1x1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %c = linalg.matmul ins(%x, %w : tensor<1x512xf32>, tensor<512x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %o = tensor.empty() : tensor<1x1000xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : tensor<1x1000xf32>, tensor<1000xf32>) outs(%o : tensor<1x1000xf32>) {
  ^bb0(%v: f32, %bb: f32, %u: f32):
    %s = arith.addf %v, %bb : f32
    linalg.yield %s : f32
  } -> tensor<1x1000xf32>
  return %y : tensor<1x1000xf32>
}
