// Matrix-vector products: one output column (1000 x 1 = A x v) is a row
// sum of products vectorized along k with partial sums; one output row
// (1 x 1000 = u x B) is a contraction along n. Both on two cores, with
// prime and odd extents, checked against the reference lowering.
// RUN: strata-run %s --target=host-x86-avx512 --entry=column --check | FileCheck %s --check-prefix=COL
// RUN: strata-run %s --target=host-x86-avx512 --entry=row --check | FileCheck %s --check-prefix=ROW

// COL: column: check result #0 (1000x1xf32): relative error {{.*}} PASS
func.func @column(%a: tensor<1000x997xf32>, %v: tensor<997x1xf32>) -> tensor<1000x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1000x1xf32>) -> tensor<1000x1xf32>
  %c = linalg.matmul ins(%a, %v : tensor<1000x997xf32>, tensor<997x1xf32>) outs(%f : tensor<1000x1xf32>) -> tensor<1000x1xf32>
  return %c : tensor<1000x1xf32>
}

// ROW: row: check result #0 (1x1000xf32): relative error {{.*}} PASS
func.func @row(%u: tensor<1x997xf32>, %b: tensor<997x1000xf32>) -> tensor<1x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %c = linalg.matmul ins(%u, %b : tensor<1x997xf32>, tensor<997x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %c : tensor<1x1000xf32>
}
