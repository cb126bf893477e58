// Small static copies become vector transfers, one per power-of-two piece
// of a row; copies of dynamically many rows of a static length become a
// loop over the rows around such transfers; fully dynamic ones loops.
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

// A row of 122 elements: pieces of 64, 32, 16, 8 and 2 (a vector of 122
// is no legal vector type).
// CHECK-LABEL: func.func @ragged_row
// CHECK: vector.transfer_read {{.*}} vector<1x64xf32>
// CHECK: vector.transfer_write
// CHECK: vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x16xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x8xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x2xf32>
// CHECK-NOT: vector<1x122xf32>
// CHECK-NOT: memref.copy
func.func @ragged_row(%a: memref<1x122xf32, strided<[1000, 1], offset: ?>>, %b: memref<1x122xf32, strided<[250, 1], offset: ?>>) {
  memref.copy %a, %b : memref<1x122xf32, strided<[1000, 1], offset: ?>> to memref<1x122xf32, strided<[250, 1], offset: ?>>
  return
}

// A padded tile copied back into a ragged edge: dynamically many rows of
// 232 elements, one row at a time (128, 64, 32, 8).
// CHECK-LABEL: func.func @rows
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK: memref.subview %arg0[%[[R]], 0] [1, 232]
// CHECK: vector.transfer_read {{.*}} vector<1x128xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x64xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x8xf32>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.copy
func.func @rows(%a: memref<?x232xf32, strided<[240, 1]>>, %b: memref<?x232xf32, strided<[1000, 1], offset: ?>>) {
  memref.copy %a, %b : memref<?x232xf32, strided<[240, 1]>> to memref<?x232xf32, strided<[1000, 1], offset: ?>>
  return
}

// A static copy of more elements than one vector holds (a padded 252 x 424
// output tile copied back into its ragged edge): a loop over the rows
// around the pieces of one row (LLVM turned element loops of such a copy
// into shuffles).
// CHECK-LABEL: func.func @many_rows
// CHECK: scf.for %{{.*}} = %c0 to %c252 step %c1
// CHECK: vector.transfer_read {{.*}} vector<1x128xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x32xf32>
// CHECK: vector.transfer_read {{.*}} vector<1x8xf32>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.copy
func.func @many_rows(%a: memref<252x424xf32, strided<[432, 1]>>, %b: memref<252x424xf32, strided<[1000, 1], offset: ?>>) {
  memref.copy %a, %b : memref<252x424xf32, strided<[432, 1]>> to memref<252x424xf32, strided<[1000, 1], offset: ?>>
  return
}
