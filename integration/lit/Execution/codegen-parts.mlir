// Host code generation in parts on threads (what a large network gets by
// default, forced here with --codegen-threads): the functions are dealt to
// two parts, each generated in a context of its own, and the objects link
// into one library whose results match the reference. Internal functions
// (the grid loops' bodies) cross parts as hidden symbols: the library
// exports only the program's.
// RUN: strata-run %s --target=host --check --codegen-threads=2 --log-level=info 2>&1 | FileCheck %s
// RUN: strata-compile %s --target=host --codegen-threads=2 -o %t.so
// RUN: nm -D --defined-only %t.so | FileCheck %s --check-prefix=EXPORTS
// CHECK: host code generation in 2 parts
// CHECK: mlp: check result #0 (64x96xf32): {{.*}} PASS
// EXPORTS-NOT: omp_par
// EXPORTS-DAG: T _mlir_ciface_mlp
// EXPORTS-DAG: R strata_manifest
// EXPORTS-NOT: omp_par
func.func @mlp(%x: tensor<64x128xf32>, %w1: tensor<128x256xf32>,
               %w2: tensor<256x96xf32>) -> tensor<64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x256xf32>
  %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<64x128xf32>, tensor<128x256xf32>)
      outs(%f1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<64x256xf32>) outs(%e1 : tensor<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<64x256xf32>
  %e2 = tensor.empty() : tensor<64x96xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x96xf32>) -> tensor<64x96xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<64x256xf32>, tensor<256x96xf32>)
      outs(%f2 : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %y : tensor<64x96xf32>
}
