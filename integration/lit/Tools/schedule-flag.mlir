// --schedule=FILE.json replaces the model's schedule of the ops it names:
// here a 4x32 register tile instead of the model's 6x64.
// RUN: echo '{"matmul/1": {"kind": "contraction", "register": [4, 32, 1], "register_order": [1, 0, 2], "vector_dim": 1, "vector_width": 16}}' > %t.json
// RUN: strata-compile %s --target=host-x86-avx512 --schedule=%t.json --emit=mlir -o - | FileCheck %s
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=MODEL
// RUN: not strata-compile %s --target=host-x86-avx512 --schedule=%t-missing.json --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: vector.contract {{.*}} : vector<4x1xf32>, vector<1x32xf32> into vector<4x32xf32>
// MODEL: vector.contract {{.*}} : vector<6x1xf32>, vector<1x64xf32> into vector<6x64xf32>
// MISSING: error: cannot read schedule file '{{.*}}-missing.json'
func.func @matmul(%a: tensor<96x64xf32>, %b: tensor<64x128xf32>) -> tensor<96x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<96x128xf32>) -> tensor<96x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<96x64xf32>, tensor<64x128xf32>) outs(%f : tensor<96x128xf32>) -> tensor<96x128xf32>
  return %c : tensor<96x128xf32>
}
