// Scratch buffers of static size freed in their own block move to the stack
// when that block runs once per call (a function) or once per thread (a grid
// loop's body), at most 512 KiB each and 1 MiB per block; the thread
// lowering then makes a grid loop's stack buffers once per thread, before
// the work-sharing loop.
// RUN: strata-opt %s --strata-cpu-stack-buffers | FileCheck %s
// RUN: strata-opt %s --strata-cpu-stack-buffers --strata-cpu-threads | FileCheck %s --check-prefix=THREADS

// CHECK-LABEL: func.func @function_scratch
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<64x64xf32>
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @function_scratch(%a: memref<64x64xf32>, %o: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
  memref.copy %a, %buf : memref<64x64xf32> to memref<64x64xf32>
  memref.copy %buf, %o : memref<64x64xf32> to memref<64x64xf32>
  memref.dealloc %buf : memref<64x64xf32>
  return
}

// Too large (1 MiB), dynamic, or freed in another block: on the heap.
// CHECK-LABEL: func.func @heap_scratch
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK-NOT: memref.alloca
func.func @heap_scratch(%n: index, %flag: i1) {
  %big = memref.alloc() {alignment = 64 : i64} : memref<512x512xf32>
  memref.dealloc %big : memref<512x512xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %dyn : memref<?xf32>
  %late = memref.alloc() : memref<16xf32>
  scf.if %flag {
    memref.dealloc %late : memref<16xf32>
  }
  return
}

// Two buffers of 512 KiB fill the block's budget; the third stays a heap
// buffer. In a sequential loop's body (once per iteration) nothing moves.
// CHECK-LABEL: func.func @budget
// CHECK-COUNT-2: memref.alloca() : memref<128x1024xf32>
// CHECK: memref.alloc() : memref<128x1024xf32>
// CHECK: scf.for
// CHECK-NEXT: memref.alloc() : memref<8xf32>
func.func @budget(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<128x1024xf32>
  %y = memref.alloc() : memref<128x1024xf32>
  %z = memref.alloc() : memref<128x1024xf32>
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<8xf32>
    memref.dealloc %t : memref<8xf32>
  }
  memref.dealloc %x : memref<128x1024xf32>
  memref.dealloc %y : memref<128x1024xf32>
  memref.dealloc %z : memref<128x1024xf32>
  return
}

// A grid loop's body: each thread's own buffer, made before the
// work-sharing loop that may give a thread several iterations.
// CHECK-LABEL: func.func @per_thread
// CHECK: scf.forall
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64} : memref<32x32xf32>
// THREADS-LABEL: func.func @per_thread
// THREADS: omp.parallel
// THREADS-NEXT: memref.alloca() {alignment = 64 : i64} : memref<32x32xf32>
// THREADS-NEXT: omp.wsloop
// THREADS-NOT: memref.alloc
// THREADS: omp.terminator
func.func @per_thread(%a: memref<64x32xf32>) {
  scf.forall (%i) in (2) {
    %c32 = arith.constant 32 : index
    %off = arith.muli %i, %c32 : index
    %buf = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
    %src = memref.subview %a[%off, 0] [32, 32] [1, 1] : memref<64x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    memref.copy %src, %buf : memref<32x32xf32, strided<[32, 1], offset: ?>> to memref<32x32xf32>
    memref.dealloc %buf : memref<32x32xf32>
  } {mapping = [#strata.grid<"core">]}
  return
}
