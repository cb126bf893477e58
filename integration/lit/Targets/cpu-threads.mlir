// The cpu plugin runs scf.forall loops mapped to the grid on threads: an
// outermost grid loop becomes an OpenMP parallel region of one thread per
// iteration around a work-sharing loop; loops not mapped to the grid, and
// grid loops inside a threaded one, stay sequential.
// RUN: strata-opt %s --strata-cpu-threads | FileCheck %s

// CHECK-LABEL: func.func @halves
// CHECK: %[[N:.*]] = arith.constant 2 : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK: arith.muli %[[I]]
// CHECK: linalg.generic
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-NOT: scf.forall
// CHECK: return
func.func @halves(%a: memref<4x8xf32>, %o: memref<4x8xf32>) {
  scf.forall (%i) in (2) {
    %c2 = arith.constant 2 : index
    %r = arith.muli %i, %c2 : index
    %sa = memref.subview %a[%r, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    %so = memref.subview %o[%r, 0] [2, 8] [1, 1] : memref<4x8xf32> to memref<2x8xf32, strided<[8, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%sa : memref<2x8xf32, strided<[8, 1], offset: ?>>)
        outs(%so : memref<2x8xf32, strided<[8, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %x : f32
      linalg.yield %z : f32
    }
  } {mapping = [#strata.grid<"core">]}
  return
}

// A two-dimensional grid is one iteration space: 2 x 4 threads. The grid
// loop nested in it runs on each thread as it is.
// CHECK-LABEL: func.func @grid2d
// CHECK: %[[N:.*]] = arith.constant 8 : i32
// CHECK: omp.parallel num_threads(%[[N]] : i32) {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%{{.*}}, %{{.*}}) : index = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%{{.*}}, %{{.*}}) collapse(2) {
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK: memref.store
// CHECK: {mapping = [#strata.grid<"lane">]}
// CHECK: omp.yield
func.func @grid2d(%o: memref<2x4x4xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (2, 4) {
    scf.forall (%k) in (4) {
      memref.store %one, %o[%i, %j, %k] : memref<2x4x4xf32>
    } {mapping = [#strata.grid<"lane">]}
  } {mapping = [#strata.grid<"core", 1>, #strata.grid<"core", 0>]}
  return
}

// Dynamic bounds: as many threads as iterations, at least one.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[UB:.*]]: index,
// CHECK: %[[EXT:.*]] = arith.subi %[[UB]], %{{.*}} : index
// CHECK: %[[CNT:.*]] = arith.ceildivsi %[[EXT]], %{{.*}} : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[CNT]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.index_cast %[[POS]] : index to i32
// CHECK: omp.parallel num_threads(%[[N]] : i32)
func.func @dynamic(%n: index, %o: memref<?xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (%n) {
    memref.store %one, %o[%i] : memref<?xf32>
  } {mapping = [#strata.grid<"core">]}
  return
}

// Not mapped to the grid: left to the host lowering, which runs it as loops.
// CHECK-LABEL: func.func @unmapped
// CHECK-NOT: omp.
// CHECK: scf.forall
// CHECK-NOT: omp.
// CHECK: return
func.func @unmapped(%o: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    memref.store %one, %o[%i] : memref<4xf32>
  }
  return
}
