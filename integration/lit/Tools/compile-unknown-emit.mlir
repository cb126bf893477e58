// RUN: rm -f %t.so %t.s
// RUN: not strata-compile %s --emit=asm -o %t.s 2>&1 | FileCheck %s
// RUN: test ! -e %t.s

// CHECK: strata-compile: error: --emit: unknown stage 'asm'; expected mlir, lowered, llvm, obj or lib

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
