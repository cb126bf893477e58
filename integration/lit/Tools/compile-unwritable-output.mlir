// An output that cannot be written is reported by its name.
// RUN: not strata-compile %s --emit=mlir -o %t.missing-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=MLIR -DOUT=%t.missing-dir/out.mlir
// RUN: not strata-compile %s -o %t.missing-dir/out.so 2>&1 | FileCheck %s --check-prefix=LIB -DOUT=%t.missing-dir/out.so

// MLIR: strata-compile: error: cannot open output file '[[OUT]]': No such file or directory
// LIB: strata-compile: error: {{.*}}'[[OUT]]{{(.partial)?}}'

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
