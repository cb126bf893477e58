// RUN: strata-opt %s --strata-reference-to-llvm | FileCheck %s

// Tensors to the LLVM dialect, with the C interface of public functions.
// CHECK-NOT: func.func
// CHECK-LABEL: llvm.func @scale(
// CHECK-SAME: attributes {llvm.emit_c_interface}
// CHECK-LABEL: llvm.func @_mlir_ciface_scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-NOT: _mlir_ciface_helper
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: tensor.
// CHECK-NOT: scf.
func.func private @helper(%x: f32) -> f32 {
  %r = arith.mulf %x, %x : f32
  return %r : f32
}
func.func @scale(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = func.call @helper(%v) : (f32) -> f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %g : tensor<16xf32>
}
