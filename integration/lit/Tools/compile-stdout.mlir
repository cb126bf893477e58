// "-o -" writes every kind of artifact to stdout, pipes included.
// XFAIL: *
// RUN: strata-compile %s --emit=obj -o - | llvm-nm - | FileCheck %s
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir
// RUN: strata-compile %s --emit=lib -o - | llvm-nm -D --defined-only - | FileCheck %s
// RUN: test ! -e %t.dir/-

// CHECK: T _mlir_ciface_copy
func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
