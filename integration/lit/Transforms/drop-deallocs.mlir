// A program's own memref.dealloc ops are dropped (the deallocation
// pipeline frees its buffers and refused functions that free their own,
// MLIR's Linalg/CPU/test-conv-2d-call.mlir among them); everything else
// stays.
// RUN: strata-opt %s --strata-drop-deallocs | FileCheck %s
// The whole program, through strata-mlir-runner: computed, printed, and
// every buffer freed once (the pipeline's frees; none of the program's).
// RUN: strata-mlir-runner %s | FileCheck %s --check-prefix=RUN1
// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=FREES

// CHECK-LABEL: func.func @main
// CHECK: memref.alloc
// CHECK: linalg.fill
// CHECK-NOT: memref.dealloc
// CHECK: return

// RUN1: Unranked Memref {{.*}} sizes = [2, 3] strides = [3, 1] data =
// RUN1-NEXT: [7,   7,   7],
// RUN1-NEXT: [7,   7,   7]]

// FREES-LABEL: func.func @main
// FREES-COUNT-1: memref.dealloc
// FREES-NOT: memref.dealloc
// FREES: return
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c = arith.constant 7.0 : f32
  %buf = memref.alloc() : memref<2x3xf32>
  linalg.fill ins(%c : f32) outs(%buf : memref<2x3xf32>)
  %u = memref.cast %buf : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %buf : memref<2x3xf32>
  return
}
