// A matmul that is one cache tile on one core, with rows (128) that are no
// multiple of the register tile's (6 on AVX-512): the partial register tile
// is peeled and the tile's loops yield their own destination. (Padding the
// output instead made the k loop yield a slice of the padded buffer, which
// failed to bufferize.)
// RUN: taskset -c 0 strata-run %s --check | FileCheck %s
// RUN: strata-run %s --check | FileCheck %s

// CHECK: matmul_128x512x192: check result #0 (128x192xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
func.func @matmul_128x512x192(%a: tensor<128x512xf32>, %b: tensor<512x192xf32>) -> tensor<128x192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x192xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x192xf32>) -> tensor<128x192xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x192xf32>) outs(%f : tensor<128x192xf32>) -> tensor<128x192xf32>
  return %c : tensor<128x192xf32>
}
