// Vector stores into a buffer that the function only writes, and that is
// larger than the chip's largest cache (32 MiB here), are non-temporal. A
// buffer that is also read, or that fits the cache, keeps plain stores;
// without a description nothing changes. Where the buffer's alignment to
// the vector width (64 bytes) proves the stores aligned, the nest runs in
// two versions: aligned streaming stores when the buffer is aligned, plain
// stores otherwise; stores no alignment can be proven for keep one version.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-streaming-stores | FileCheck %s
// RUN: strata-opt %s --strata-streaming-stores | FileCheck %s --check-prefix=NOCHIP

// CHECK-LABEL: func.func @write_only
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[LOW:.*]] = arith.andi %[[P]], %c63
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK: scf.if %[[OK]] {
// CHECK: scf.for
// CHECK: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: nontemporal
// CHECK: vector.store {{.*}} : memref
// CHECK: }
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

// Rows of 1000 floats start at 4000-byte steps: only every 16th row is
// aligned, so nothing is proven and the streaming stores stay unversioned.
// CHECK-LABEL: func.func @ragged_rows
// CHECK-NOT: scf.if
// CHECK: vector.store {{.*}} {nontemporal = true}
// CHECK: llvm.fence seq_cst
func.func @ragged_rows(%in: memref<16xf32>, %out: memref<9000x1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9000 = arith.constant 9000 : index
  %v = vector.load %in[%c0] : memref<16xf32>, vector<16xf32>
  scf.for %i = %c0 to %c9000 step %c1 {
    vector.store %v, %out[%i, %c0] : memref<9000x1000xf32>, vector<16xf32>
  }
  return
}

// Tiles of 32 rows by 64 columns, stored 16 floats at a time from column 8:
// the stores from column 8 are proven 32-byte aligned only; those from
// column 0 are 64-byte aligned, so the nest is versioned and
// the aligned copy carries each store's own proof.
// CHECK-LABEL: func.func @tiles
// CHECK: scf.if
// CHECK-DAG: vector.store %{{.*}}[%c0, %c0] {alignment = 64 : i64, nontemporal = true}
// CHECK-DAG: vector.store %{{.*}}[%c0, %c8] {alignment = 32 : i64, nontemporal = true}
// CHECK: } else {
func.func @tiles(%in: memref<16xf32>, %out: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %v = vector.load %in[%c0] : memref<16xf32>, vector<16xf32>
  scf.for %i = %c0 to %c4096 step %c32 {
    scf.for %j = %c0 to %c4096 step %c64 {
      %tile = memref.subview %out[%i, %j] [32, 64] [1, 1] : memref<4096x4096xf32> to memref<32x64xf32, strided<[4096, 1], offset: ?>>
      vector.store %v, %tile[%c0, %c0] : memref<32x64xf32, strided<[4096, 1], offset: ?>>, vector<16xf32>
      vector.store %v, %tile[%c0, %c8] : memref<32x64xf32, strided<[4096, 1], offset: ?>>, vector<16xf32>
    }
  }
  return
}
