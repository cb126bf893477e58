// A bf16 (or f16) contraction sums in f32 and rounds once: an f32 output
// filled with the extended zero, the same loops and maps with the products
// and sums in f32, then a truncation to bf16. f32 contractions and bodies
// other than products and sums are left alone. The AVX-512 description
// names znver5 with avx512bf16, whose code converts to bf16 in vectors
// (x86-64-v4 alone called a runtime library that is not linked).
// RUN: strata-opt %s --strata-widen-accumulators | FileCheck %s
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=bf16_matmul --check | FileCheck %s --check-prefix=NUM %}

// CHECK-LABEL: func.func @bf16_matmul
// CHECK: %[[E:.*]] = tensor.empty() : tensor<96x80xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<96x80xf32>)
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<96x1024xbf16>, tensor<1024x80xbf16>) outs(%[[F]] : tensor<96x80xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[P]] : tensor<96x80xf32>) outs(%{{.*}} : tensor<96x80xbf16>)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// NUM: bf16_matmul: check result #0 (96x80xbf16): relative error {{.*}} PASS
func.func @bf16_matmul(%a: tensor<96x1024xbf16>, %b: tensor<1024x80xbf16>) -> tensor<96x80xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<96x80xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<96x80xbf16>) -> tensor<96x80xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<96x1024xbf16>, tensor<1024x80xbf16>) outs(%f : tensor<96x80xbf16>) -> tensor<96x80xbf16>
  return %c : tensor<96x80xbf16>
}

// CHECK-LABEL: func.func @f32_matmul
// CHECK-NOT: arith.truncf
// CHECK: linalg.matmul
func.func @f32_matmul(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
