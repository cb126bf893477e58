// RUN: strata-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=MAPPED
// RUN: strata-compile %s --target=host-x86-avx2 --emit=mlir -o - | FileCheck %s --check-prefix=AVX2
// RUN: strata-compile %s --target=%inputs/toy-cpu.json --emit=mlir -o - | FileCheck %s --check-prefix=TOY
// RUN: strata-compile %s --emit=mlir -o - | strata-opt | FileCheck %s --check-prefix=MAPPED
// RUN: strata-compile %s --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED
// RUN: strata-compile %s --emit=llvm -o - | FileCheck %s --check-prefix=LLVM
// RUN: rm -f %t.o %t.so
// RUN: strata-compile %s --emit=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: strata-compile %s --emit=lib -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=LIB
// RUN: rm -f %t.default.so
// RUN: strata-compile %s -o %t.default.so
// RUN: llvm-nm -D --defined-only %t.default.so | FileCheck %s --check-prefix=LIB

// The mapped program: outputs are trailing memref arguments, and the chip
// rides on the module.
// MAPPED: module attributes {strata.hw = #strata.hw<"host", {
// MAPPED-SAME: plugin = "cpu"
// MAPPED-LABEL: func.func @matmul
// MAPPED-SAME: (%[[A:.*]]: memref<64x32xf32>, %[[B:.*]]: memref<32x48xf32>, %[[C:.*]]: memref<64x48xf32>) {
// MAPPED-NOT: tensor<
// The matmul split over the cores, tiled, packed and vectorized (S4).
// MAPPED: scf.forall
// MAPPED: vector.contract
// MAPPED: {mapping = [#strata.grid<"core">]}
// MAPPED-LABEL: func.func @scale
// MAPPED-SAME: (%{{.*}}: memref<64x48xf32>, %{{.*}}: memref<64x48xf32>, %{{.*}}: memref<48x64xf32>) {

// AVX2: module attributes {strata.hw = #strata.hw<"host-x86-avx2", {arch = "x86-64-v3"
// AVX2-LABEL: func.func @matmul
// AVX2-SAME: memref<64x48xf32>) {

// TOY: module attributes {strata.hw = #strata.hw<"toy-cpu", {arch = "x86-64-v3", clock_hz = 2.000000e+09 : f64
// TOY-LABEL: func.func @matmul

// The lowered program: LLVM dialect with the C interface of each function.
// LOWERED-NOT: func.func
// LOWERED-LABEL: llvm.func @matmul(
// LOWERED-SAME: attributes {llvm.emit_c_interface}
// LOWERED-LABEL: llvm.func @_mlir_ciface_matmul(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LOWERED-LABEL: llvm.func @scale(
// LOWERED-LABEL: llvm.func @_mlir_ciface_scale(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// LOWERED-NOT: linalg.
// LOWERED-NOT: memref.

// LLVM-DAG: define void @matmul(
// LLVM-DAG: define void @_mlir_ciface_matmul(ptr {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}%2)
// LLVM-DAG: define void @_mlir_ciface_scale(ptr {{.*}}%0, ptr {{.*}}%1, ptr {{.*}}%2)
// LLVM-NOT: _mlir_ciface_helper

// OBJ-DAG: T _mlir_ciface_matmul
// OBJ-DAG: T _mlir_ciface_scale
// OBJ-DAG: T matmul
// OBJ-NOT: _mlir_ciface_helper

// LIB-DAG: T _mlir_ciface_matmul
// LIB-DAG: T _mlir_ciface_scale
// LIB-NOT: _mlir_ciface_helper

func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%f : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}

func.func private @helper(%x: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %e = tensor.empty() : tensor<64x48xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x48xf32>) outs(%e : tensor<64x48xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<64x48xf32>
  return %g : tensor<64x48xf32>
}

func.func @scale(%x: tensor<64x48xf32>) -> (tensor<64x48xf32>, tensor<48x64xf32>) {
  %s = func.call @helper(%x) : (tensor<64x48xf32>) -> tensor<64x48xf32>
  %e = tensor.empty() : tensor<48x64xf32>
  %t = linalg.transpose ins(%s : tensor<64x48xf32>) outs(%e : tensor<48x64xf32>) permutation = [1, 0]
  return %s, %t : tensor<64x48xf32>, tensor<48x64xf32>
}
