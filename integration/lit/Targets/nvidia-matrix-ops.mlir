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
