// RUN: strata-opt %s --strata-hoist-vector-transfers --split-input-file | FileCheck %s

// The accumulator's read/write pair leaves the reduction loop and travels
// through iter_args.
// CHECK-LABEL: func.func @accumulate
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[C:.*]][%{{.*}}, %{{.*}}]
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<16xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]], %[[C]]
func.func @accumulate(%a: memref<64x64xf32>, %c: memref<64x64xf32>, %i: index, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %c64 step %c1 {
    %acc = vector.transfer_read %c[%i, %j], %pad : memref<64x64xf32>, vector<16xf32>
    %x = vector.transfer_read %a[%k, %j], %pad : memref<64x64xf32>, vector<16xf32>
    %s = arith.addf %acc, %x : vector<16xf32>
    vector.transfer_write %s, %c[%i, %j] : vector<16xf32>, memref<64x64xf32>
  }
  return
}

// -----

// A loop that may not run keeps its transfers: hoisting would touch memory
// the program never accesses.
// CHECK-LABEL: func.func @maybe_empty
// CHECK: scf.for
// CHECK: vector.transfer_read
// CHECK: vector.transfer_write
func.func @maybe_empty(%a: memref<64x64xf32>, %c: memref<64x64xf32>, %i: index, %j: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %k = %c0 to %n step %c1 {
    %acc = vector.transfer_read %c[%i, %j], %pad : memref<64x64xf32>, vector<16xf32>
    %x = vector.transfer_read %a[%k, %j], %pad : memref<64x64xf32>, vector<16xf32>
    %s = arith.addf %acc, %x : vector<16xf32>
    vector.transfer_write %s, %c[%i, %j] : vector<16xf32>, memref<64x64xf32>
  }
  return
}
