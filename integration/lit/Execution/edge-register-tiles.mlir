// The last register tile along a vector loop of 424 columns (padded to
// 432) in 64-wide tiles is 48 lanes wide: it is split into tiles of 32 and
// 16 lanes that share one reduction loop. LLVM breaks a loop-carried vector
// of 48 lanes (no power of two) into scalars: a GEMM with such an edge ran
// at less than half speed. Checked against the reference.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --check | FileCheck %s --check-prefix=CHECKED %}

// CHECK-LABEL: func.func @edge
// CHECK: vector.contract {{.*}} into vector<6x64xf32>
// CHECK-NOT: into vector<6x48xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<6x32xf32>, vector<6x16xf32>)
// CHECK: vector.contract {{.*}} into vector<6x32xf32>
// CHECK: vector.contract {{.*}} into vector<6x16xf32>
// CHECK-NOT: into vector<6x48xf32>
// CHECKED: PASS
func.func @edge(%a: tensor<12x32xf32>, %b: tensor<32x424xf32>) -> tensor<12x424xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<12x424xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<12x424xf32>) -> tensor<12x424xf32>
  %r = linalg.matmul ins(%a, %b : tensor<12x32xf32>, tensor<32x424xf32>) outs(%f : tensor<12x424xf32>) -> tensor<12x424xf32>
  return %r : tensor<12x424xf32>
}
