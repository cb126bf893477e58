// Functions strata-run cannot feed are named, with the argument or result.
// RUN: split-file %s %t
// RUN: not strata-run %t/dynamic.mlir 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: not strata-run %t/scalar.mlir 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not strata-run %t/scalar-result.mlir 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not strata-run %t/complex.mlir 2>&1 | FileCheck %s --check-prefix=COMPLEX
// RUN: not strata-run %t/scalar.mlir --entry=scaled 2>&1 | FileCheck %s --check-prefix=SCALAR

// DYNAMIC: dynamic.mlir:1:1: error: function 'dyn': argument #0 has unsupported type 'tensor<?xf32>': dynamic dimensions need concrete sizes to run
// DYNAMIC-NOT: ran on

// SCALAR: scalar.mlir:4:1: error: function 'scaled': argument #1 has unsupported type 'f32': expected a ranked tensor with a static shape
// SCALAR-NOT: ran on

// RESULT: scalar-result.mlir:1:1: error: function 'first': result #0 has unsupported type 'f32'

// COMPLEX: complex.mlir:1:1: error: function 'cplx': argument #0 has unsupported type 'tensor<4xcomplex<f32>>'

//--- dynamic.mlir
func.func @dyn(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

//--- scalar.mlir
func.func @fine(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @scaled(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

//--- scalar-result.mlir
func.func @first(%a: tensor<4xf32>) -> f32 {
  %c = arith.constant 0 : index
  %e = tensor.extract %a[%c] : tensor<4xf32>
  return %e : f32
}

//--- complex.mlir
func.func @cplx(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}
