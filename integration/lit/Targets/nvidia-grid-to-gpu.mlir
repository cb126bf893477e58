// nvidia-grid-to-gpu: block-level loops become gpu.launch (ids in mapping
// order, dim 0 is x), warp and lane loops slices of the thread id, and
// scratchpad buffers views of the dynamic shared memory.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},nvidia-grid-to-gpu)" | FileCheck %s

// CHECK-LABEL: func.func @tiles
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// 2 warps of 32 lanes: 64 threads; 1024 + 256 bytes of shared memory.
// CHECK-DAG: %[[SHARED:.*]] = arith.constant 1280 : i32
// CHECK: gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in (%{{.*}} = %[[C5]], %{{.*}} = %[[C3]], %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C64]], %{{.*}}, %{{.*}}) dynamic_shared_memory_size %[[SHARED]]
// CHECK: %[[DYN:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[A:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.view %[[DYN]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// The warp: thread id / 32; the lane: (thread id mod 32) / 1.
// CHECK: %[[WARP:.*]] = arith.divui %[[TX]], %c32
// CHECK: %[[LANEID:.*]] = arith.remui %[[TX]], %c32
// CHECK: arith.divui %[[LANEID]], %c1
// CHECK: memref.store {{.*}}, %[[A]][%[[BY]], %[[BX]]]
// CHECK: gpu.barrier
// CHECK: memref.load %[[B]]
// CHECK-NOT: scf.forall
// CHECK: gpu.terminator
func.func @tiles(%out: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i, %j) in (3, 5) {
    %a = memref.alloc() : memref<16x16xf32, #strata.mem<"shared">>
    %b = memref.alloc() : memref<64xf32, #strata.mem<"shared">>
    scf.forall (%w) in (2) {
      scf.forall (%l) in (32) {
        memref.store %one, %a[%i, %j] : memref<16x16xf32, #strata.mem<"shared">>
      } {mapping = [#strata.grid<"lane">]}
      gpu.barrier
      %v = memref.load %b[%w] : memref<64xf32, #strata.mem<"shared">>
      memref.store %v, %out[%w] : memref<64xf32>
    } {mapping = [#strata.grid<"warp">]}
  } {mapping = [#strata.grid<"sm", 1>, #strata.grid<"sm", 0>]}
  return
}

// -----

func.func @wrong_count(%out: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (3) {
    scf.forall (%w) in (2) {
      // expected-error @below {{nvidia-grid-to-gpu: 32 instances of 'lane' here run this loop but it has 16 iterations}}
      scf.forall (%l) in (16) {
        memref.store %one, %out[%l] : memref<64xf32>
      } {mapping = [#strata.grid<"lane">]}
    } {mapping = [#strata.grid<"warp">]}
  } {mapping = [#strata.grid<"sm">]}
  return
}

// -----

func.func @not_a_block(%out: memref<64xf32>) {
  %one = arith.constant 1.0 : f32
  // expected-error @below {{nvidia-grid-to-gpu: an outermost grid loop must map to 'sm'}}
  scf.forall (%w) in (2) {
    memref.store %one, %out[%w] : memref<64xf32>
  } {mapping = [#strata.grid<"warp">]}
  return
}

// -----

// Asynchronous copies: each 16-byte global-to-shared copy of a marked lane
// loop is one cp.async (L1 bypassed), the lane commits them as one group
// where the loop ends, and a marked barrier first waits until at most N of
// the lane's newest groups are in flight. Unmarked copies stay synchronous.
// CHECK-LABEL: func.func @async_copies
// CHECK: %[[TILE:.*]] = memref.view %{{.*}} to memref<16x72xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %[[TILE]][%{{.*}}, %{{.*}}], 8 {bypassL1} : memref<64x64xf16> to memref<16x72xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.store
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: strata.
// CHECK: vector.load %arg0
// CHECK: vector.store
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK: gpu.terminator
func.func @async_copies(%in: memref<64x64xf16>) {
  scf.forall (%i) in (4) {
    %t = memref.alloc() : memref<16x72xf16, #strata.mem<"shared">>
    scf.forall (%w) in (1) {
      scf.forall (%l) in (32) {
        %c0 = arith.constant 0 : index
        %v = vector.load %in[%l, %c0] : memref<64x64xf16>, vector<8xf16>
        vector.store %v, %t[%l, %c0] : memref<16x72xf16, #strata.mem<"shared">>, vector<8xf16>
      } {mapping = [#strata.grid<"lane">], strata.async_copy}
      gpu.barrier {strata.pending_copy_groups = 1 : i64}
      scf.forall (%l) in (32) {
        %c8 = arith.constant 8 : index
        %v = vector.load %in[%l, %c8] : memref<64x64xf16>, vector<8xf16>
        vector.store %v, %t[%l, %c8] : memref<16x72xf16, #strata.mem<"shared">>, vector<8xf16>
      } {mapping = [#strata.grid<"lane">]}
    } {mapping = [#strata.grid<"warp">]}
  } {mapping = [#strata.grid<"sm">]}
  return
}

// -----

func.func @async_copy_size(%in: memref<64x64xf16>) {
  scf.forall (%i) in (4) {
    %t = memref.alloc() : memref<16x72xf16, #strata.mem<"shared">>
    scf.forall (%w) in (1) {
      scf.forall (%l) in (32) {
        %c0 = arith.constant 0 : index
        %v = vector.load %in[%l, %c0] : memref<64x64xf16>, vector<3xf16>
        // expected-error @below {{nvidia-grid-to-gpu: an asynchronous copy moves 4, 8 or 16 bytes, not 'vector<3xf16>'}}
        vector.store %v, %t[%l, %c0] : memref<16x72xf16, #strata.mem<"shared">>, vector<3xf16>
      } {mapping = [#strata.grid<"lane">], strata.async_copy}
    } {mapping = [#strata.grid<"warp">]}
  } {mapping = [#strata.grid<"sm">]}
  return
}
