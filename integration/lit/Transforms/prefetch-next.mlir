// A loop over the rows of a buffer larger than the chip's largest cache
// (64 MiB > 32 MiB), whose body makes two passes over its row: the last pass
// that reads the row prefetches the next row's lines (64-byte lines: 16
// floats, so 2 prefetches per 32-float load), into the second cache level.
// The next row index stays inside the buffer. A single pass, a buffer that
// fits the cache, and a row larger than half the second level get nothing.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-prefetch-next | FileCheck %s
// RUN: strata-opt %s --strata-prefetch-next | FileCheck %s --check-prefix=NOCHIP

// CHECK-LABEL: func.func @two_passes
// CHECK: scf.for %[[I:.*]] = %c0 to %[[UB:.*]] step %[[STEP:[^ ]*]]
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[I]], %[[STEP]]
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[AHEAD]], %[[UB]]
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[IN]], %[[AHEAD]], %[[I]]
// CHECK: scf.for
// CHECK-NOT: memref.prefetch
// CHECK: vector.load
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[ROW:.*]] = memref.subview %arg0[%[[NEXT]], 0] [1, 4096]
// CHECK: memref.prefetch %[[ROW]][%[[J]]], read, locality<2>, data
// CHECK: %[[J16:.*]] = arith.addi %[[J]], %c16
// CHECK: memref.prefetch %[[ROW]][%[[J16]]], read, locality<2>, data
// CHECK-NOT: memref.prefetch
// CHECK: vector.load
// NOCHIP-NOT: memref.prefetch
func.func @two_passes(%in: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant dense<0.0> : vector<32xf32>
  scf.for %i = %c0 to %c4096 step %c1 {
    %row = memref.subview %in[%i, 0] [1, 4096] [1, 1] : memref<4096x4096xf32> to memref<4096xf32, strided<[1], offset: ?>>
    %sum = scf.for %j = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<32xf32>) {
      %v = vector.load %row[%j] : memref<4096xf32, strided<[1], offset: ?>>, vector<32xf32>
      %s = arith.addf %acc, %v : vector<32xf32>
      scf.yield %s : vector<32xf32>
    }
    %orow = memref.subview %out[%i, 0] [1, 4096] [1, 1] : memref<4096x4096xf32> to memref<4096xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %c4096 step %c32 {
      %v = vector.load %row[%j] : memref<4096xf32, strided<[1], offset: ?>>, vector<32xf32>
      %p = arith.mulf %v, %sum : vector<32xf32>
      vector.store %p, %orow[%j] : memref<4096xf32, strided<[1], offset: ?>>, vector<32xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @one_pass
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @one_pass(%in: memref<4096x4096xf32>, %out: memref<4096x4096xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c4096 = arith.constant 4096 : index
  scf.for %i = %c0 to %c4096 step %c1 {
    scf.for %j = %c0 to %c4096 step %c32 {
      %v = vector.load %in[%i, %j] : memref<4096x4096xf32>, vector<32xf32>
      vector.store %v, %out[%i, %j] : memref<4096x4096xf32>, vector<32xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @fits_cache
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @fits_cache(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c1024 = arith.constant 1024 : index
  scf.for %i = %c0 to %c1024 step %c1 {
    %row = memref.subview %in[%i, 0] [1, 1024] [1, 1] : memref<1024x1024xf32> to memref<1024xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %row[%j] : memref<1024xf32, strided<[1], offset: ?>>, vector<32xf32>
      vector.store %v, %out[%i, %j] : memref<1024x1024xf32>, vector<32xf32>
    }
    scf.for %j = %c0 to %c1024 step %c32 {
      %v = vector.load %row[%j] : memref<1024xf32, strided<[1], offset: ?>>, vector<32xf32>
      vector.store %v, %out[%i, %j] : memref<1024x1024xf32>, vector<32xf32>
    }
  }
  return
}

// Rows of 1 MiB: more than half of the 1 MiB second level.
// CHECK-LABEL: func.func @huge_rows
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @huge_rows(%in: memref<64x262144xf32>, %out: memref<64x262144xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cn = arith.constant 262144 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %row = memref.subview %in[%i, 0] [1, 262144] [1, 1] : memref<64x262144xf32> to memref<262144xf32, strided<[1], offset: ?>>
    scf.for %j = %c0 to %cn step %c32 {
      %v = vector.load %row[%j] : memref<262144xf32, strided<[1], offset: ?>>, vector<32xf32>
      vector.store %v, %out[%i, %j] : memref<64x262144xf32>, vector<32xf32>
    }
    scf.for %j = %c0 to %cn step %c32 {
      %v = vector.load %row[%j] : memref<262144xf32, strided<[1], offset: ?>>, vector<32xf32>
      vector.store %v, %out[%i, %j] : memref<64x262144xf32>, vector<32xf32>
    }
  }
  return
}
