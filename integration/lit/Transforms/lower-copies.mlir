// Small static copies become one vector transfer; dynamic ones loops.
// RUN: strata-opt %s --strata-lower-copies | FileCheck %s

// CHECK-LABEL: func.func @row
// CHECK: %[[V:.*]] = vector.transfer_read %arg0{{.*}} : memref<1x128xf32, strided<[512, 1]>>, vector<1x128xf32>
// CHECK: vector.transfer_write %[[V]], %arg1
// CHECK-NOT: memref.copy
func.func @row(%a: memref<1x128xf32, strided<[512, 1]>>, %b: memref<1x128xf32, strided<[256, 1]>>) {
  memref.copy %a, %b : memref<1x128xf32, strided<[512, 1]>> to memref<1x128xf32, strided<[256, 1]>>
  return
}

// CHECK-LABEL: func.func @dynamic
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: memref.copy
func.func @dynamic(%a: memref<?x?xf32, strided<[?, 1]>>, %b: memref<?x?xf32>) {
  memref.copy %a, %b : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32>
  return
}
