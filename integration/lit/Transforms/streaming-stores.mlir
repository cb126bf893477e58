// Vector stores into a buffer that the function only writes, and that is
// larger than the chip's largest cache (32 MiB here), are non-temporal. A
// buffer that is also read, or that fits the cache, keeps plain stores;
// without a description nothing changes.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-streaming-stores | FileCheck %s
// RUN: strata-opt %s --strata-streaming-stores | FileCheck %s --check-prefix=NOCHIP

// CHECK-LABEL: func.func @write_only
// CHECK: scf.for
// CHECK: vector.store {{.*}} {nontemporal = true}
// CHECK: }
// CHECK-NEXT: llvm.fence seq_cst
// CHECK-NEXT: return
// NOCHIP-LABEL: func.func @write_only
// NOCHIP-NOT: nontemporal
func.func @write_only(%in: memref<16xf32>, %out: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %v = vector.load %in[%c0] : memref<16xf32>, vector<16xf32>
  scf.for %i = %c0 to %c4096 step %c1 {
    %row = memref.subview %out[%i, 0] [1, 4096] [1, 1] : memref<4096x4096xf32> to memref<4096xf32, strided<[1], offset: ?>>
    vector.store %v, %row[%c0] : memref<4096xf32, strided<[1], offset: ?>>, vector<16xf32>
  }
  return
}

// CHECK-LABEL: func.func @read_too
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
func.func @read_too(%out: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %out[%c0, %c0] : memref<4096x4096xf32>, vector<16xf32>
  %w = arith.addf %v, %v : vector<16xf32>
  vector.store %w, %out[%c0, %c0] : memref<4096x4096xf32>, vector<16xf32>
  return
}

// CHECK-LABEL: func.func @fits
// CHECK-NOT: nontemporal
func.func @fits(%in: memref<16xf32>, %out: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %in[%c0] : memref<16xf32>, vector<16xf32>
  vector.store %v, %out[%c0, %c0] : memref<1024x1024xf32>, vector<16xf32>
  return
}
