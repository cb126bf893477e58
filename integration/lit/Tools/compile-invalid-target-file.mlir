// Every error of the description is listed with its JSON path.
// RUN: rm -f %t.so
// RUN: not strata-compile %s --target=%inputs/invalid-fields.json -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: not strata-compile %s --target=%inputs/invalid-syntax.json -o %t.so 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: test ! -e %t.so

// CHECK: invalid-fields.json: error: at /name: expected a name of lowercase letters, digits and '-', got "Bad_Chip"
// CHECK-NEXT: invalid-fields.json: error: at /clock_hz: expected a number > 0, got -1
// CHECK-NEXT: invalid-fields.json: error: at /compute/1/count: expected a positive integer, got 0
// CHECK-NEXT: invalid-fields.json: error: at /compute/2/name: duplicate compute level name "core"
// CHECK-NEXT: invalid-fields.json: error: at /memory/0/kind: unknown memory kind "drum" (did you mean "dram"?)
// CHECK-NEXT: invalid-fields.json: error: at /memory/1/capacity_bytes: expected a positive integer, got "32K"
// CHECK-NEXT: invalid-fields.json: error: at /memory/1/owner: unknown compute level "cluster"
// CHECK-NEXT: invalid-fields.json: error: at /vector/element_types/1: unknown element type "f33" (did you mean "f32"?)
// CHECK-NEXT: invalid-fields.json: error: at /clock_mhz: unknown field "clock_mhz" (did you mean "clock_hz"?)
// CHECK-NEXT: strata-compile: error: --target={{.*}}invalid-fields.json: no usable hardware description

// SYNTAX: invalid-syntax.json:7:{{[0-9]+}}: error: malformed JSON
// SYNTAX-NEXT: strata-compile: error: --target={{.*}}invalid-syntax.json: no usable hardware description

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
