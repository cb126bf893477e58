// The sm_90a path from the core's mapped IR to nvgpu: swizzled tiles, TMA
// bulk copies with one mbarrier per stage, wgmma on matrix descriptors.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize,func.func(nvidia-swizzle-tiles),nvidia-grid-to-gpu,canonicalize,cse,func.func(nvidia-matrix-ops),canonicalize,cse)" | FileCheck %s
// RUN: sed 's/"bulk_tensor_copy": true,//' %descriptions/nvidia/descriptions/nvidia-h200.json > %t.no-tma.json
// RUN: strata-opt %s --pass-pipeline="builtin.module(strata-attach-target{target=%t.no-tma.json},func.func(strata-map-hierarchy),canonicalize,func.func(nvidia-swizzle-tiles),nvidia-grid-to-gpu,canonicalize,cse,func.func(nvidia-matrix-ops),canonicalize,cse)" | FileCheck %s --check-prefix=NOTMA

// Tensor maps of A (boxes of 64 rows x 64 halves) and B (64 x 64 panels)
// on the host, before the launch.
// CHECK-LABEL: func.func @matmul_bf16
// CHECK: %[[MA:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b
// CHECK: %[[MB:.*]] = nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c64] : memref<*xbf16> -> <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b
// CHECK: gpu.launch
// One mbarrier per stage, two arrivals (the A and B copies) per fill.
// CHECK: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[BARS]][%{{.*}}], %c2
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: gpu.barrier
// Thread 0 fills stages 0-2: bytes expected, then A's box and B's panels.
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%c0], %c8192
// CHECK-NEXT: nvgpu.tma.async.load %[[MA]][%c0, %{{.*}}], %[[BARS]][%c0] to %{{.*}} : {{.*}} -> memref<64x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%c0], %c16384
// CHECK-COUNT-2: nvgpu.tma.async.load %[[MB]][%{{.*}}, %c0], %[[BARS]][%c0]
// CHECK: %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x128xf32>>
// CHECK: scf.for %[[IT:.*]] = {{.*}} iter_args(%{{.*}} = %[[INIT]]) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>)
// Each k tile waits for its stage's phase (the iteration's parity), then
// the refill of the previous tile's stage, then one mma of 4 k16 steps.
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%c0], %[[PARITY:.*]], %{{.*}}
// CHECK: gpu.barrier
// CHECK: nvgpu.tma.async.load %[[MA]]{{.*}}, %[[BARS]][%c3]
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, <tensor = memref<64x64xbf16, 3>, swizzle = swizzle_128b
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x128xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB, waitGroup = 0 : i64} : <tensor = memref<64x64xbf16, 3>>, <tensor = memref<64x128xbf16, 3>>, <fragmented = vector<64x128xf32>>
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%c1], %[[PARITY]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%c2], %[[PARITY]]
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%c3], %[[PARITY]]
// CHECK-NOT: vector.contract
// The accumulators into the staging tile, one warpgroup per 64 rows.
// CHECK: gpu.barrier
// CHECK: nvgpu.warpgroup.mma.store {{.*}} : <fragmented = vector<64x128xf32>> to memref<64x128xf32, strided<[128, 1]>, #gpu.address_space<workgroup>>

// Without TMA: cp.async copies into the swizzled tiles (xor of the 16-byte
// chunk with the row), the same wgmma.
// NOTMA-LABEL: func.func @matmul_bf16
// NOTMA-NOT: nvgpu.tma
// NOTMA-NOT: mbarrier
// NOTMA: arith.xori
// NOTMA: nvgpu.device_async_copy {{.*}} : memref<1024x512xbf16> to memref<4096xbf16, #gpu.address_space<workgroup>>
// NOTMA: nvvm.cp.async.commit.group
// NOTMA: scf.for
// NOTMA: nvvm.cp.async.wait.group 2
// NOTMA-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// NOTMA-NEXT: gpu.barrier
// NOTMA: nvgpu.warpgroup.mma {{.*}} {transposeB, waitGroup = 0 : i64}
// NOTMA: nvgpu.warpgroup.mma.store
func.func @matmul_bf16(%a: memref<1024x512xbf16>, %b: memref<512x1024xbf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x512xbf16>, memref<512x1024xbf16>) outs(%c : memref<1024x1024xf32>)
  return
}
