// nvidia-matrix-ops: contractions tagged with a matrix intrinsic, in their k
// loop, become ldmatrix loads from shared memory and mma.sync on per-lane
// fragments; the accumulators stay in registers across the loop.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(nvidia-matrix-ops),canonicalize)" | FileCheck %s

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @fragments
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: affine.apply
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: vector.contract
// CHECK: gpu.lane_id
// CHECK: vector.store {{.*}} : memref<32x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
func.func @fragments(%as: memref<32x72xf16, #gpu.address_space<workgroup>>,
                     %bs: memref<64x72xf16, #gpu.address_space<workgroup>>,
                     %cs: memref<32x64xf32, #gpu.address_space<workgroup>>,
                     %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f16
  %zero = arith.constant dense<0.0> : vector<16x8xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> vector<16x8xf32> {
    %kk = arith.muli %k, %c16 : index
    %r16 = arith.addi %row, %c16 : index
    %va = vector.transfer_read %as[%r16, %kk], %pad {in_bounds = [true, true]} : memref<32x72xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %vb = vector.transfer_read %bs[%kk, %c0], %pad {in_bounds = [true, true]} : memref<64x72xf16, #gpu.address_space<workgroup>>, vector<16x8xf16>
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
    scf.yield %d : vector<16x8xf32>
  }
  vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @no_loop(%va: vector<16x16xf16>, %vb: vector<16x8xf16>, %acc: vector<16x8xf32>) -> vector<16x8xf32> {
  // expected-error @below {{nvidia-matrix-ops: a matrix-intrinsic contraction must accumulate in a k loop}}
  %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc {strata.intrinsic = "mma_m16n8k16_f16"} : vector<16x16xf16>, vector<16x8xf16> into vector<16x8xf32>
  return %d : vector<16x8xf32>
}

// -----

// bf16 operands are read as f16 views of the same shared-memory bytes
// (ldmatrix moves b16 elements either way), and the mma.sync is the bf16
// one: four A and two B registers of two elements each, f32 accumulators.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @bf16_fragments
// CHECK-DAG: %[[A16:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<9216xi8, #gpu.address_space<workgroup>> to memref<32x72xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[B16:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<9216xi8, #gpu.address_space<workgroup>> to memref<64x72xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x2xf32>)
// CHECK: nvgpu.ldmatrix %[[A16]]{{.*}} {numTiles = 4 : i32, transpose = false} : memref<32x72xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %[[B16]]{{.*}} {numTiles = 2 : i32, transpose = true} : memref<64x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK-COUNT-6: llvm.bitcast %{{.*}} : vector<2xf16> to i32
// CHECK: nvvm.mma.sync A[{{.*}}, {{.*}}, {{.*}}, {{.*}}] B[{{.*}}, {{.*}}] C[{{.*}}, {{.*}}, {{.*}}, {{.*}}] {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: vector.contract
// CHECK: scf.yield %{{.*}} : vector<2x2xf32>
func.func @bf16_fragments(%smem: memref<9216xi8, #gpu.address_space<workgroup>>,
                          %cs: memref<32x64xf32, #gpu.address_space<workgroup>>,
                          %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c4608 = arith.constant 4608 : index
  %as = memref.view %smem[%c0][] : memref<9216xi8, #gpu.address_space<workgroup>> to memref<32x72xbf16, #gpu.address_space<workgroup>>
  %bs = memref.view %smem[%c4608][] : memref<9216xi8, #gpu.address_space<workgroup>> to memref<64x72xbf16, #gpu.address_space<workgroup>>
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16x8xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> vector<16x8xf32> {
    %kk = arith.muli %k, %c16 : index
    %va = vector.transfer_read %as[%row, %kk], %pad {in_bounds = [true, true]} : memref<32x72xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    %vb = vector.transfer_read %bs[%kk, %c0], %pad {in_bounds = [true, true]} : memref<64x72xbf16, #gpu.address_space<workgroup>>, vector<16x8xbf16>
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc {strata.intrinsic = "mma_m16n8k16_bf16"} : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
    scf.yield %d : vector<16x8xf32>
  }
  vector.transfer_write %r, %cs[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf32>, memref<32x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_not_a_view(%as: memref<32x72xbf16, #gpu.address_space<workgroup>>, %vb: vector<16x8xbf16>) -> vector<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : bf16
  %zero = arith.constant dense<0.0> : vector<16x8xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> vector<16x8xf32> {
    %va = vector.transfer_read %as[%c0, %c0], %pad {in_bounds = [true, true]} : memref<32x72xbf16, #gpu.address_space<workgroup>>, vector<16x16xbf16>
    // expected-error @below {{nvidia-matrix-ops: bf16 operands of a matrix intrinsic must be read from a shared-memory view (memref.view)}}
    %d = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %va, %vb, %acc {strata.intrinsic = "mma_m16n8k16_bf16"} : vector<16x16xbf16>, vector<16x8xbf16> into vector<16x8xf32>
    scf.yield %d : vector<16x8xf32>
  }
  return %r : vector<16x8xf32>
}
