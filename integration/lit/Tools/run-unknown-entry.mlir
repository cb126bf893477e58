// RUN: not strata-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=NOPE
// RUN: not strata-run %s --entry=hidden 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: split-file %s %t
// RUN: not strata-run %t/none.mlir 2>&1 | FileCheck %s --check-prefix=NONE

// NOPE: strata-run: error: --entry: '{{.*}}run-unknown-entry.mlir' has no public function 'nope'
// NOPE-NOT: ran on

// A private function is no entry.
// PRIVATE: strata-run: error: --entry: '{{.*}}run-unknown-entry.mlir' has no public function 'hidden'

// NONE: strata-run: error: {{.*}}none.mlir: no public function with a body to run

func.func @visible(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @hidden(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- none.mlir
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
