// Matrix-vector products: one output column (1000 x 1 = A x v) is a row
// sum of products vectorized along k with partial sums; one output row
// (1 x 1000 = u x B) is a contraction along n that reads B in place (no
// packed copy: one register tile covers m, so each element of B is used
// once), as do 5 rows and a batch of 2-row products; 7 rows (two register
// tiles, and n = 1000 ragged: B's last tile would be padded on every use)
// pack B. All on two cores, with prime and odd extents (peeled n and
// k tiles), checked against the reference lowering.
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=column --check | FileCheck %s --check-prefix=COL %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=row --check | FileCheck %s --check-prefix=ROW %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=rows --check | FileCheck %s --check-prefix=ROWS %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=batch --check | FileCheck %s --check-prefix=BATCH %}
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=IR

// The products of 5 and 2 rows allocate nothing (no packed panel of B);
// 7 rows do.
// IR-LABEL: func.func @rows(
// IR-NOT: memref.alloc
// IR-LABEL: func.func @batch(
// IR-NOT: memref.alloc
// IR-LABEL: func.func @seven(
// IR: memref.alloc

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

// ROWS: rows: check result #0 (5x1000xf32): relative error {{.*}} PASS
func.func @rows(%u: tensor<5x997xf32>, %b: tensor<997x1000xf32>) -> tensor<5x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x1000xf32>) -> tensor<5x1000xf32>
  %c = linalg.matmul ins(%u, %b : tensor<5x997xf32>, tensor<997x1000xf32>) outs(%f : tensor<5x1000xf32>) -> tensor<5x1000xf32>
  return %c : tensor<5x1000xf32>
}

// BATCH: batch: check result #0 (8x2x515xf32): relative error {{.*}} PASS
func.func @batch(%a: tensor<8x2x301xf32>, %b: tensor<8x301x515xf32>) -> tensor<8x2x515xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x2x515xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x2x515xf32>) -> tensor<8x2x515xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<8x2x301xf32>, tensor<8x301x515xf32>) outs(%f : tensor<8x2x515xf32>) -> tensor<8x2x515xf32>
  return %c : tensor<8x2x515xf32>
}

func.func @seven(%u: tensor<7x997xf32>, %b: tensor<997x1000xf32>) -> tensor<7x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x1000xf32>) -> tensor<7x1000xf32>
  %c = linalg.matmul ins(%u, %b : tensor<7x997xf32>, tensor<997x1000xf32>) outs(%f : tensor<7x1000xf32>) -> tensor<7x1000xf32>
  return %c : tensor<7x1000xf32>
}
