// Row reductions whose length is no multiple of the register tile, and rows
// shorter than it, checked against the reference.
// - Rows of 1025 with 128-wide tiles: the reduction is split after 1024, so
//   the whole tiles accumulate in registers (an scf.for carrying a vector)
//   and the last element is reduced on its own; no tile is masked.
// - Rows of 100 (7 vectors): one register tile of exactly 100 lanes.
// - Rows of 32: four rows per register tile, reduced together, where 4
//   divides the rows of each core's part (1000 on two cores); else one at a
//   time (999 rows, split 500 + 499).
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=long_rows --check | FileCheck %s --check-prefix=LONG %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=rows_of_100 --check | FileCheck %s --check-prefix=HUNDRED %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=short_rows --check | FileCheck %s --check-prefix=SHORT %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=odd_rows --check | FileCheck %s --check-prefix=ODD %}
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @long_rows
// IR-NOT: create_mask
// IR-NOT: constant_mask
// IR: scf.for %{{.*}} = %c0 to %c1024 step %c128 iter_args(%{{.*}}) -> (vector<1x128xf32>)
// IR: vector.multi_reduction <maxnumf>, %{{.*}} [1] : vector<1x128xf32> to vector<1xf32>
// IR: memref.subview %{{.*}}[0, 1024] [1, 1] [1, 1]
// IR-LABEL: func.func @rows_of_100
// IR-NOT: mask
// IR: vector.multi_reduction <maxnumf>, %{{.*}} [1] : vector<1x100xf32> to vector<1xf32>
// IR-LABEL: func.func @short_rows
// IR: scf.forall (%{{.*}}) = (0) to (1000) step (500)
// IR: scf.for %{{.*}} = %c0 to %c500 step %c4
// IR: vector.multi_reduction <maxnumf>, %{{.*}} [1] : vector<4x32xf32> to vector<4xf32>
// IR-LABEL: func.func @odd_rows
// IR: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// IR-NOT: mask
// IR: vector.multi_reduction <maxnumf>, %{{.*}} [1] : vector<1x32xf32> to vector<1xf32>
// LONG: long_rows: check result #0 (33x1025xf32): relative error {{.*}} PASS
func.func @long_rows(%x: tensor<33x1025xf32>) -> tensor<33x1025xf32> {
  %e = tensor.empty() : tensor<33x1025xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<33x1025xf32>) outs(%e : tensor<33x1025xf32>) -> tensor<33x1025xf32>
  return %y : tensor<33x1025xf32>
}

// HUNDRED: rows_of_100: check result #0 (37x100xf32): relative error {{.*}} PASS
func.func @rows_of_100(%x: tensor<37x100xf32>) -> tensor<37x100xf32> {
  %e = tensor.empty() : tensor<37x100xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<37x100xf32>) outs(%e : tensor<37x100xf32>) -> tensor<37x100xf32>
  return %y : tensor<37x100xf32>
}

// SHORT: short_rows: check result #0 (1000x32xf32): relative error {{.*}} PASS
func.func @short_rows(%x: tensor<1000x32xf32>) -> tensor<1000x32xf32> {
  %e = tensor.empty() : tensor<1000x32xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<1000x32xf32>) outs(%e : tensor<1000x32xf32>) -> tensor<1000x32xf32>
  return %y : tensor<1000x32xf32>
}

// ODD: odd_rows: check result #0 (999x32xf32): relative error {{.*}} PASS
func.func @odd_rows(%x: tensor<999x32xf32>) -> tensor<999x32xf32> {
  %e = tensor.empty() : tensor<999x32xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<999x32xf32>) outs(%e : tensor<999x32xf32>) -> tensor<999x32xf32>
  return %y : tensor<999x32xf32>
}
