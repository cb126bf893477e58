// "-o -" writes text and object outputs to stdout, pipes included; a shared
// library cannot go to stdout and is refused without creating a file "-".
// RUN: strata-compile %s --emit=obj -o - | llvm-nm - | FileCheck %s
// RUN: strata-compile %s --emit=llvm -o - | FileCheck %s --check-prefix=LL
// RUN: rm -rf %t.dir && mkdir %t.dir && cd %t.dir
// RUN: not strata-compile %s --emit=lib -o - 2>&1 | FileCheck %s --check-prefix=LIB
// RUN: test ! -e %t.dir/-

// CHECK: T _mlir_ciface_copy
// LL: define void @_mlir_ciface_copy(
// LIB: error: -o -: a library cannot be written to stdout; expected a file name
func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
