// RUN: rm -f %t.so
// RUN: not strata-compile %s -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: not strata-compile %s --emit=mlir -o %t.mlir 2>&1 | FileCheck %s
// RUN: test ! -e %t.mlir

// CHECK: compile-malformed.mlir:[[# @LINE + 4]]:22: error: expected SSA operand
// CHECK-NEXT: %b = arith.addf %a, : f32
// CHECK-NEXT: {{^ *}}^
func.func @f(%a: f32) -> f32 {
  %b = arith.addf %a, : f32
  return %b : f32
}
