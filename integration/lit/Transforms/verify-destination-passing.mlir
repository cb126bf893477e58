// RUN: strata-opt %s --split-input-file --strata-verify-destination-passing --verify-diagnostics | FileCheck %s

// Results already passed as output arguments: accepted.
// CHECK-LABEL: func.func @ok
func.func @ok(%a: memref<4xf32>, %out: memref<4xf32>) {
  return
}

// -----

// expected-error @+1 {{result #0 has a dynamic shape ('memref<?xf32>'); results must have static shapes to be passed as output arguments}}
func.func @dynamic(%a: memref<?xf32>) -> memref<?xf32> {
  return %a : memref<?xf32>
}

// -----

// expected-error @+1 {{still returns 1 value(s) after bufferization; expected results as output arguments}}
func.func @static(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

// -----

// Private helpers may return values: only the exported ABI is checked.
func.func private @helper(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
