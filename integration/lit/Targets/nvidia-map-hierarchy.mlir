// strata-map-hierarchy on buffers: block, group and lane loops, scratchpad
// tiles, barriers, and contractions at the matrix intrinsic's shape; a zero
// fill and an in-place bias+GELU epilogue fold into the kernel.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=A100
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=H200

// A100-LABEL: func.func @matmul_f16
// A100-NOT: linalg.
// Blocks of 128 x 64 (4 warps of 32 x 64), 8 x 16 of them.
// A100: scf.forall (%[[BM:.*]], %[[BN:.*]]) in (8, 16) {
// Four stages of each operand tile (copied asynchronously: the k loop of 8
// tiles runs twice, unrolled by the stages), rows padded by 8 halves, and
// the staging tile of the accumulators over the stages (used after them).
// A100: %[[SHARED:.*]] = memref.alloc() : memref<110592xi8, #strata.mem<"shared">>
// A100-NEXT: memref.view %[[SHARED]][%c0][] : {{.*}} to memref<128x72xf16, #strata.mem<"shared">>
// A100-NEXT: memref.view %[[SHARED]][%c18432][] : {{.*}} to memref<64x72xf16, #strata.mem<"shared">>
// A100-COUNT-6: memref.view %[[SHARED]]
// A100-NEXT: memref.view %[[SHARED]][%c0][] : {{.*}} to memref<128x64xf32, #strata.mem<"shared">>
// A100: scf.forall (%{{.*}}) in (4) {
// The prologue: three k tiles in flight, one copy group each.
// A100-COUNT-3: } {mapping = [#strata.grid<"lane">], strata.async_copy}
// A100: scf.for {{.*}} = %c0 to %c2 step %c1 {{.*}} -> (vector<16x8xf32>,
// Each k tile: wait until at most 2 groups are in flight and for every
// lane, then refill the buffer the previous tile used (tile + 3).
// A100-NEXT: arith.muli
// A100-NEXT: gpu.barrier {strata.pending_copy_groups = 2 : i64}
// A100: scf.forall (%{{.*}}) in (32) {
// A100: vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<1024x512xf16>, vector<8xf16>
// A100: vector.store {{.*}} {alignment = 16 : i64} : memref<128x72xf16, #strata.mem<"shared">>, vector<8xf16>
// A100: } {mapping = [#strata.grid<"lane">], strata.async_copy}
// A100: vector.transfer_read {{.*}} : memref<128x72xf16, #strata.mem<"shared">>, vector<16x16xf16>
// A100: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
// The next tiles' refills (tile + 4 onwards: the next iteration's) copy only
// while the loop has one; past the end each lane commits an empty group.
// A100: gpu.barrier {strata.pending_copy_groups = 2 : i64}
// A100: %[[MORE:.*]] = arith.cmpi ult, %{{.*}}, %c2 : index
// A100-NEXT: scf.forall (%{{.*}}) in (32) {
// A100: scf.if %[[MORE]] {
// A100: vector.store {{.*}} : memref<128x72xf16, #strata.mem<"shared">>, vector<8xf16>
// A100: } {mapping = [#strata.grid<"lane">], strata.async_copy}
// A100-COUNT-2: gpu.barrier {strata.pending_copy_groups = 2 : i64}
// A100-NOT: strata.pending_copy_groups
// Every warp is past its last reads of the stages before the staging tile
// overwrites them.
// A100: scf.yield
// A100-NEXT: }
// A100-NEXT: gpu.barrier
// A100-NEXT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<128x64xf32, #strata.mem<"shared">>
// A100: gpu.barrier
// A100: memref.store {{.*}}, %arg2
// A100: } {mapping = [#strata.grid<"warp">]}
// A100: } {mapping = [#strata.grid<"sm", 1>, #strata.grid<"sm">], strata.schedule = #strata.schedule<{{.*}}async_copies = true{{.*}}buffers = 4 : i64{{.*}}intrinsic = "mma_m16n8k16_f16"

// The H200 offers warpgroup-level intrinsics: the largest whose accumulators
// fit half of a lane's registers, m64n128k16 (64 per lane), is the group
// tile of a warpgroup (128 lanes); blocks of 4 warpgroups would leave SMs
// idle, so one warpgroup per 64 x 128 block, 16 x 8 of them. The tiles are
// unpadded (the plugin swizzles them), 4 stages of 64-wide k tiles, which
// arrive as bulk copies of whole tiles (shared memory declares
// bulk_tensor_copy): the prologue fills stages 0-2, each k tile awaits its
// stage, then refills the stage the previous k tile used.
// H200-LABEL: func.func @matmul_f16
// H200: scf.forall (%{{.*}}, %{{.*}}) in (16, 8) {
// H200: memref.alloc() : memref<98304xi8, #strata.mem<"shared">>
// H200-NEXT: %[[A0:.*]] = memref.view {{.*}} to memref<64x64xf16, #strata.mem<"shared">>
// H200-NEXT: %[[B0:.*]] = memref.view {{.*}} to memref<64x128xf16, #strata.mem<"shared">>
// H200: scf.forall (%{{.*}}) in (1) {
// H200-NOT: strata.grid<"lane">
// H200: %[[SA:.*]] = memref.subview %arg0[%{{.*}}, 0] [64, 64] [1, 1]
// H200-NEXT: memref.copy %[[SA]], %[[A0]] {strata.bulk_copy_stage = 0 : i64}
// H200-NEXT: %[[SB:.*]] = memref.subview %arg1[0, %{{.*}}] [64, 128] [1, 1]
// H200-NEXT: memref.copy %[[SB]], %[[B0]] {strata.bulk_copy_stage = 0 : i64}
// H200: memref.copy {{.*}} {strata.bulk_copy_stage = 2 : i64}
// H200: scf.for {{.*}} -> (vector<64x128xf32>) {
// H200: gpu.barrier {strata.await_stage = 0 : i64}
// H200: memref.copy {{.*}} {strata.bulk_copy_stage = 3 : i64}
// H200: vector.transfer_read {{.*}} : memref<64x64xf16, #strata.mem<"shared">>, vector<64x16xf16>
// H200: vector.transfer_read {{.*}} : memref<64x128xf16, #strata.mem<"shared">>, vector<16x128xf16>
// H200: vector.contract {{.*}} {strata.intrinsic = "wgmma_m64n128k16_f16"} : vector<64x16xf16>, vector<16x128xf16> into vector<64x128xf32>
// H200: vector.transfer_write {{.*}} : vector<64x128xf32>, memref<64x128xf32, #strata.mem<"shared">>
// H200: gpu.barrier {strata.await_stage = 1 : i64}
// H200: scf.if
// H200-NEXT: memref.subview
// H200-NEXT: memref.copy {{.*}} {strata.bulk_copy_stage = 0 : i64}
// H200: gpu.barrier {strata.await_stage = 3 : i64}
// H200-NOT: strata.async_copy
// H200: } {mapping = [#strata.grid<"warpgroup">]}
// H200: strata.schedule = #strata.schedule<{{.*}}bulk_copies = true{{.*}}collective = true{{.*}}groups = ["warpgroup", 1, 1]{{.*}}intrinsic = "wgmma_m64n128k16_f16"{{.*}}pad = 0
func.func @matmul_f16(%a: memref<1024x512xf16>, %b: memref<512x1024xf16>, %c: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1024x1024xf32>)
  linalg.matmul ins(%a, %b : memref<1024x512xf16>, memref<512x1024xf16>) outs(%c : memref<1024x1024xf32>)
  return
}

// -----

// f32 has no matrix intrinsic here: each lane keeps an 8 x 8 tile of
// accumulators (rows of vector<8xf32>) and multiply-adds.
// A100-LABEL: func.func @matmul_f32
// A100: memref.alloc() : memref<{{[0-9]+}}x17xf32, #strata.mem<"shared">>
// A100: scf.forall (%{{.*}}) in (32) {
// A100: vector.load {{.*}} : memref<16x{{[0-9]+}}xf32, #strata.mem<"shared">>, vector<8xf32>
// A100: vector.fma {{.*}} : vector<8xf32>
// A100-NOT: strata.intrinsic
// A100: "fma"
func.func @matmul_f32(%a: memref<256x512xf32>, %b: memref<512x384xf32>, %c: memref<256x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<256x384xf32>)
  linalg.matmul ins(%a, %b : memref<256x512xf32>, memref<512x384xf32>) outs(%c : memref<256x384xf32>)
  return
}

// -----

// Bias and GELU read the accumulator and write the output in place: one
// kernel, the epilogue applied to the staged accumulators before the only
// store; the generic is gone.
// A100-LABEL: func.func @mlp_f16
// A100-NOT: linalg.
// A100: vector.contract
// A100: gpu.barrier
// A100: memref.load %arg2
// A100: arith.addf
// A100: math.erf
// A100: memref.store {{.*}}, %arg3
// A100-NOT: scf.forall
// A100: return
#map_2d = affine_map<(i, j) -> (i, j)>
#map_bias = affine_map<(i, j) -> (j)>
func.func @mlp_f16(%x: memref<512x1024xf16>, %w: memref<1024x2048xf16>, %b: memref<2048xf32>, %y: memref<512x2048xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<512x2048xf32>)
  linalg.matmul ins(%x, %w : memref<512x1024xf16>, memref<1024x2048xf16>) outs(%y : memref<512x2048xf32>)
  linalg.generic {indexing_maps = [#map_2d, #map_bias, #map_2d], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : memref<512x2048xf32>, memref<2048xf32>) outs(%y : memref<512x2048xf32>) {
  ^bb0(%acc: f32, %bias: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %inv_sqrt2 = arith.constant 0.707106781 : f32
    %t = arith.addf %acc, %bias : f32
    %s = arith.mulf %t, %inv_sqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %h = arith.mulf %t, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  }
  return
}

// -----

// Elementwise ops: one element per lane, blocks of all the warps.
// A100-LABEL: func.func @relu
// A100: scf.forall (%{{.*}}) in (512) {
// A100: scf.forall (%{{.*}}) in (4) {
// A100: scf.forall (%{{.*}}) in (32) {
// A100: arith.maximumf
// A100: {mapping = [#strata.grid<"lane">]}
// A100: {mapping = [#strata.grid<"warp">]}
// A100: {mapping = [#strata.grid<"sm">], strata.schedule = #strata.schedule<{elementwise = 65536 : i64
func.func @relu(%x: memref<256x256xf32>, %y: memref<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<256x256xf32>) outs(%y : memref<256x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Extents the tiles do not divide: copies check bounds and fill zeros
// (scalar, no 16-byte vectors), and only outputs inside C are stored.
// A100-LABEL: func.func @ragged
// A100: scf.forall (%{{.*}}) in (32) {
// A100: %[[IN:.*]] = arith.andi
// A100: scf.if %[[IN]] -> (f16) {
// A100: memref.load %arg0
// A100: } else {
// A100: scf.yield %{{.*}} : f16
// A100: memref.store {{.*}} : memref<{{.*}}xf16, #strata.mem<"shared">>
// A100: vector.contract
// A100: arith.cmpi ult, %{{.*}}, %c100
// A100: arith.cmpi ult, %{{.*}}, %c70
// A100: scf.if
// A100: memref.store {{.*}}, %arg2
func.func @ragged(%a: memref<100x50xf16>, %b: memref<50x70xf16>, %c: memref<100x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<100x70xf32>)
  linalg.matmul ins(%a, %b : memref<100x50xf16>, memref<50x70xf16>) outs(%c : memref<100x70xf32>)
  return
}

// -----

// A buffer copy (what an identity function bufferizes to) is elementwise.
// A100-LABEL: func.func @copy
// A100-NOT: memref.copy
// A100: scf.forall (%{{.*}}) in (1) {
// A100: memref.load %arg0
// A100: memref.store {{.*}}, %arg1
func.func @copy(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
