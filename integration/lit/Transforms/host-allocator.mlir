// RUN: strata-opt %s --split-input-file --finalize-memref-to-llvm="use-generic-functions=true" --convert-func-to-llvm --reconcile-unrealized-casts --strata-host-allocator | FileCheck %s
// RUN: strata-opt %s --split-input-file --convert-func-to-llvm --strata-host-allocator | FileCheck %s --check-prefix=NONE

// Temporaries' generic allocation functions call the hooks when set, else
// malloc/free; the setter is exported.
// CHECK-DAG: llvm.mlir.global internal @strata_host_alloc_hook() {{.*}} : !llvm.ptr
// CHECK-DAG: llvm.mlir.global internal @strata_host_free_hook() {{.*}} : !llvm.ptr
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_free(%{{.*}}: !llvm.ptr)
// CHECK: llvm.call @free(
// CHECK: llvm.call %{{.*}}(%{{.*}}) : !llvm.ptr, (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_alloc(%{{.*}}: i64) -> !llvm.ptr
// CHECK: %[[HOOK:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[UNSET:.*]] = llvm.icmp "eq" %[[HOOK]], %{{.*}} : !llvm.ptr
// CHECK: llvm.cond_br %[[UNSET]], ^[[DIRECT:bb[0-9]+]], ^[[HOOKED:bb[0-9]+]]
// CHECK: ^[[DIRECT]]:
// CHECK: llvm.call @malloc(
// CHECK: ^[[HOOKED]]:
// CHECK: llvm.call %[[HOOK]](%{{.*}}) : !llvm.ptr, (i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @temporary
// CHECK: llvm.call @_mlir_memref_to_llvm_alloc(
// CHECK: llvm.call @_mlir_memref_to_llvm_free(
// CHECK-LABEL: llvm.func @strata_set_host_allocator(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %{{.*}}, %{{.*}} : !llvm.ptr, !llvm.ptr
func.func @temporary(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// A module that allocates nothing gains nothing.
// NONE-LABEL: llvm.func @no_temporary
// NONE-NOT: strata_host
// NONE-NOT: strata_set_host_allocator
func.func @no_temporary() {
  return
}
