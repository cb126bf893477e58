// bf16 results on the host: LLVM truncates f32 to bf16 with a call of
// __truncsfbf2 on CPUs without a conversion instruction (AVX2 only, AMD
// Zen), which the host's libgcc (GCC 12) does not define: the library did
// not load ("undefined symbol: __truncsfbf2"). Each library that computes
// in bf16 defines its own (weak, hidden); an f32 one does not.
// RUN: strata-run %s --target=host --check | FileCheck %s
// RUN: strata-compile %s --target=host --emit=llvm -o - | FileCheck %s --check-prefix=LL
// RUN: strata-compile %S/Inputs/no-grid.mlir --target=host --emit=llvm -o - | FileCheck %s --check-prefix=F32

// CHECK: exp_bf16: check result #0 (17x16xbf16): relative error {{.*}} PASS
// CHECK: matmul_bf16: check result #0 (17x16xbf16): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// LL: define weak hidden bfloat @__truncsfbf2(float
// F32-NOT: __truncsfbf2
func.func @exp_bf16(%x: tensor<17x16xbf16>) -> tensor<17x16xbf16> {
  %e = tensor.empty() : tensor<17x16xbf16>
  %r = linalg.exp ins(%x : tensor<17x16xbf16>) outs(%e : tensor<17x16xbf16>) -> tensor<17x16xbf16>
  return %r : tensor<17x16xbf16>
}
// Rows past a register tile.
func.func @matmul_bf16(%a: tensor<17x8xbf16>, %b: tensor<8x16xbf16>) -> tensor<17x16xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<17x16xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<17x16xbf16>) -> tensor<17x16xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<17x8xbf16>, tensor<8x16xbf16>) outs(%f : tensor<17x16xbf16>) -> tensor<17x16xbf16>
  return %r : tensor<17x16xbf16>
}
