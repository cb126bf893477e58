// RUN: strata-opt %s --split-input-file --strata-emit-c-interface | FileCheck %s
// RUN: strata-opt %s --split-input-file --strata-emit-c-interface --convert-func-to-llvm | FileCheck %s --check-prefix=LLVM

// Public functions with a body are exported.
// CHECK-LABEL: func.func @public_fn
// CHECK-SAME: (%{{.*}}: memref<4x8xf32>, %{{.*}}: memref<4x8xf32>) attributes {llvm.emit_c_interface}
// LLVM-LABEL: llvm.func @public_fn(
// LLVM-LABEL: llvm.func @_mlir_ciface_public_fn(
// LLVM-SAME: !llvm.ptr, %{{.*}}: !llvm.ptr)
func.func @public_fn(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  memref.copy %a, %b : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----

// Private functions and declarations are not.
// CHECK-LABEL: func.func private @private_fn
// CHECK-NOT: llvm.emit_c_interface
// CHECK: return
// CHECK: func.func private @declaration(memref<4xf32>){{$}}
// LLVM-NOT: _mlir_ciface_private_fn
// LLVM-NOT: _mlir_ciface_declaration
func.func private @private_fn(%a: memref<4xf32>) {
  return
}
func.func private @declaration(memref<4xf32>)

// -----

// A function already exported keeps a single attribute; its neighbours
// are exported too.
// CHECK-LABEL: func.func @already
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @second
// CHECK-SAME: attributes {llvm.emit_c_interface}
// LLVM-DAG: llvm.func @_mlir_ciface_already(
// LLVM-DAG: llvm.func @_mlir_ciface_second(
func.func @already() attributes {llvm.emit_c_interface} {
  return
}
func.func @second() {
  return
}

// -----

// A public function named like a C library one (exp) is renamed, so that
// the lowering's libm calls and the dynamic loader do not take one for the
// other; its wrapper gets the name _mlir_ciface_exp back in LLVM IR
// (Execution/libc-names.mlir).
// CHECK-LABEL: func.func @_strata_fn_exp
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK: call @_strata_fn_exp
// LLVM-LABEL: llvm.func @_strata_fn_exp(
// LLVM-LABEL: llvm.func @_mlir_ciface__strata_fn_exp(
func.func @exp(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
func.func @calls_exp(%a: memref<4xf32>, %b: memref<4xf32>) {
  call @exp(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
