// A softmax over columns (dimension 0): its maxima and sums run down the
// columns, so every row of the output reads all of them. They are computed
// once, before the rows' loop, not fused into it: fused, each row
// recomputed every column's maximum and sum (4096 x 4096: 43 s, now
// 18 ms). Only the per-element exponentials are fused into the rows.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --check | FileCheck %s --check-prefix=NUM %}

// CHECK-LABEL: func.func @column_softmax
// CHECK-NOT: (0) to (256)
// CHECK: arith.maxnumf
// CHECK: scf.forall (%{{.*}}) = (0) to (256) step (128)
// CHECK-NOT: arith.maxnumf
// CHECK: return
// NUM: column_softmax: check result #0 (256x512xf32): relative error {{.*}} PASS
func.func @column_softmax(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %e = tensor.empty() : tensor<256x512xf32>
  %r = linalg.softmax dimension(0) ins(%x : tensor<256x512xf32>) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}
