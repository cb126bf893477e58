// The nvidia plugin's S5 from the core's output: kernels outlined into one
// gpu.module in NVVM, mma.sync and ldmatrix on sm_80, wgmma on sm_90a, the
// fused MLP as a single launch; LLVM IR for NVPTX.
// REQUIRES: nvidia-plugin
// RUN: strata-compile %inputs/matmul-f16.mlir --target=nvidia-a100 --emit=lowered -o - | FileCheck %s --check-prefix=MM
// RUN: strata-compile %inputs/mlp-f16.mlir --target=nvidia-h200 --emit=lowered -o - | FileCheck %s --check-prefix=MLP
// RUN: strata-compile %examples/matmul.mlir --target=nvidia-a100 --emit=lowered -o - | FileCheck %s --check-prefix=F32
// RUN: strata-compile %inputs/matmul-f16.mlir --target=nvidia-h200 --emit=llvm -o - | FileCheck %s --check-prefix=LLVM

// MM-LABEL: func.func @matmul_f16
// MM: gpu.launch_func @matmul_f16_kernel::@matmul_f16_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) dynamic_shared_memory_size %{{.*}} args(%arg0 : memref<256x512xf16>, %arg1 : memref<512x384xf16>, %arg2 : memref<256x384xf32>)
// MM: gpu.module @matmul_f16_kernel [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80"{{.*}}>]
// MM: llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32
// MM: llvm.func @matmul_f16_kernel(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {gpu.kernel
// MM: nvvm.barrier0
// MM: nvvm.ldmatrix {{.*}} : (!llvm.ptr<3>)
// MM: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// MM-NOT: vector.contract

// MLP-LABEL: func.func @mlp_f16
// MLP-COUNT-1: gpu.launch_func
// MLP-NOT: gpu.launch_func
// MLP: gpu.module @mlp_f16_kernel [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80"{{.*}}>]
// MLP-NOT: nvvm.mma.sync
// MLP: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// MLP-NEXT: nvvm.barrier
// MLP: nvvm.wgmma.fence.aligned
// MLP-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// MLP-NEXT: nvvm.wgmma.commit.group.sync.aligned
// MLP-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// MLP-NOT: nvvm.mma.sync

// No f32 intrinsic: multiply-adds, no matrix ops.
// F32-LABEL: func.func @matmul
// F32: gpu.launch_func
// F32-NOT: nvvm.mma.sync
// F32: llvm.intr.fmuladd
// F32-NOT: nvvm.mma.sync

// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @matmul_f16_kernel(ptr
// LLVM: call void @llvm.nvvm.fence.proxy.async.shared_cta()
// LLVM: call void @llvm.nvvm.wgmma.fence.sync.aligned()
// LLVM: asm sideeffect "{{.*}}wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// LLVM: call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
// LLVM-NEXT: call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
