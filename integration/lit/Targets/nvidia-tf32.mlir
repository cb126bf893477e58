// strata-map-hierarchy{allow-tf32}: an f32 GEMM on the warps' mma.sync
// m16n8k8 tf32 (sm_80 and sm_90a alike: wgmma reads tf32 operands only
// K-major), its tiles f32 with rows padded by 16 bytes (4 elements), the
// intrinsic named in the schedule. Without the option: multiply-adds, as
// before (tf32 rounds the inputs, so it is never the default).
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},func.func(strata-map-hierarchy{allow-tf32}),canonicalize)" | FileCheck %s --check-prefixes=TF32,A100
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy{allow-tf32}),canonicalize)" | FileCheck %s --check-prefixes=TF32,H200
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=FMA
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=FMA

// TF32-LABEL: func.func @matmul_f32
// TF32-NOT: linalg.
// 128 x 64 blocks of 4 warps on the A100, 32 x 128 blocks of 2 warps on the
// H200 (fewer blocks would leave SMs idle); 4 stages of 32-deep k tiles.
// A100: scf.forall ({{.*}}) in (8, 16) {
// A100: memref.view {{.*}} to memref<128x36xf32, #strata.mem<"shared">>
// A100-NEXT: memref.view {{.*}} to memref<32x68xf32, #strata.mem<"shared">>
// H200: scf.forall ({{.*}}) in (32, 8) {
// H200: memref.view {{.*}} to memref<32x36xf32, #strata.mem<"shared">>
// H200-NEXT: memref.view {{.*}} to memref<32x132xf32, #strata.mem<"shared">>
// TF32: } {mapping = [#strata.grid<"lane">], strata.async_copy}
// TF32: scf.for
// TF32: gpu.barrier {strata.pending_copy_groups = 2 : i64}
// TF32: vector.transfer_read {{.*}} : memref<{{.*}}x36xf32, #strata.mem<"shared">>, vector<16x8xf32>
// TF32: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k8_tf32"} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// A100: strata.schedule = #strata.schedule<{{{.*}}async_copies = true, block = ["sm", 128, 64, 32], buffers = 4 : i64, fragment = [16, 8, 8], {{.*}}intrinsic = "mma_m16n8k8_tf32", {{.*}}pad = 4 : i64
// H200: strata.schedule = #strata.schedule<{{{.*}}async_copies = true, block = ["sm", 32, 128, 32], buffers = 4 : i64, fragment = [16, 8, 8], {{.*}}intrinsic = "mma_m16n8k8_tf32", {{.*}}pad = 4 : i64

// FMA-LABEL: func.func @matmul_f32
// FMA-NOT: vector.contract {{.*}}strata.intrinsic
// FMA-NOT: tf32
// FMA: intrinsic = "fma"
// FMA-NOT: tf32
func.func @matmul_f32(%a: memref<1000x1000xf32>, %b: memref<1000x1000xf32>, %c: memref<1000x1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1000x1000xf32>)
  linalg.matmul ins(%a, %b : memref<1000x1000xf32>, memref<1000x1000xf32>) outs(%c : memref<1000x1000xf32>)
  return
}
