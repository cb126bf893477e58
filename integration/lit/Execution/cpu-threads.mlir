// A loop over the cores (scf.forall mapped to #strata.grid<"core">) runs on
// one thread per core and computes the same result as the reference: each
// iteration writes its half of the output.
// RUN: strata-run %s --target=host --check | FileCheck %s
// RUN: strata-run %s --target=host-x86-avx2 --check | FileCheck %s --check-prefix=AVX2
// The library links the OpenMP runtime and finds it through its RUNPATH;
// one without threads does not.
// RUN: strata-compile %s --target=host --emit=lib -o %t.so
// RUN: llvm-readelf -d %t.so | FileCheck %s --check-prefix=LIB
// RUN: strata-compile %s --target=host --emit=llvm -o - | FileCheck %s --check-prefix=LL
// RUN: strata-compile %S/Inputs/no-grid.mlir --target=host --emit=lib -o %t-plain.so
// RUN: llvm-readelf -d %t-plain.so | FileCheck %s --check-prefix=PLAIN

// CHECK: matmul_halves: ran on host
// CHECK-NEXT: matmul_halves: check result #0 (64x48xf32): relative error {{.*}} PASS
// CHECK: scale_halves: check result #0 (2x256xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// AVX2: matmul_halves: check result #0 (64x48xf32): relative error {{.*}} PASS
// AVX2: scale_halves: check result #0 (2x256xf32): relative error {{.*}} PASS

// LIB-DAG: (NEEDED) Shared library: [libomp.so{{.*}}]
// LIB-DAG: (RUNPATH) Library runpath: [{{.*}}]
// LL: call void @__kmpc_push_num_threads(ptr {{.*}}, i32 %{{.*}}, i32 2)
// LL: call void {{.*}}@__kmpc_fork_call(
// PLAIN: Dynamic section
// PLAIN-NOT: libomp
// PLAIN-NOT: RUNPATH

#row = affine_map<(i) -> (i * 32)>
func.func @matmul_halves(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %r = scf.forall (%i) in (2) shared_outs(%out = %e) -> (tensor<64x48xf32>) {
    %r0 = affine.apply #row(%i)
    %ah = tensor.extract_slice %a[%r0, 0] [32, 32] [1, 1] : tensor<64x32xf32> to tensor<32x32xf32>
    %oh = tensor.extract_slice %out[%r0, 0] [32, 48] [1, 1] : tensor<64x48xf32> to tensor<32x48xf32>
    %f = linalg.fill ins(%zero : f32) outs(%oh : tensor<32x48xf32>) -> tensor<32x48xf32>
    %mm = linalg.matmul ins(%ah, %b : tensor<32x32xf32>, tensor<32x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %mm into %out[%r0, 0] [32, 48] [1, 1] : tensor<32x48xf32> into tensor<64x48xf32>
    }
  } {mapping = [#strata.grid<"core">]}
  return %r : tensor<64x48xf32>
}

// Element-wise, one row per core, into a destination that is also read.
func.func @scale_halves(%x: tensor<2x256xf32>, %y: tensor<2x256xf32>) -> tensor<2x256xf32> {
  %r = scf.forall (%i) in (2) shared_outs(%out = %y) -> (tensor<2x256xf32>) {
    %xr = tensor.extract_slice %x[%i, 0] [1, 256] [1, 1] : tensor<2x256xf32> to tensor<256xf32>
    %yr = tensor.extract_slice %out[%i, 0] [1, 256] [1, 1] : tensor<2x256xf32> to tensor<256xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>],
                         iterator_types = ["parallel"]}
        ins(%xr : tensor<256xf32>) outs(%yr : tensor<256xf32>) {
    ^bb0(%a: f32, %b: f32):
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %a, %two : f32
      %s = arith.addf %m, %b : f32
      linalg.yield %s : f32
    } -> tensor<256xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%i, 0] [1, 256] [1, 1] : tensor<256xf32> into tensor<2x256xf32>
    }
  } {mapping = [#strata.grid<"core">]}
  return %r : tensor<2x256xf32>
}
