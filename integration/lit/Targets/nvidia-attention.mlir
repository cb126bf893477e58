// Attention as one kernel (HierarchyAttention.cpp): the chain PyTorch exports
// (transpose, batch_matmul, scale, softmax, batch_matmul) maps, on buffers,
// to one block loop of (batch x heads, query tiles) with an online softmax;
// no buffer of queries x keys is left. Then the NVVM of its one kernel.
// REQUIRES: nvidia-plugin
// RUN: strata-compile %s --target=nvidia-a100 --emit=mlir -o - | FileCheck %s --check-prefix=MAP
// RUN: strata-compile %s --target=nvidia-a100 --emit=lowered -o - | FileCheck %s --check-prefix=NVVM
// RUN: strata-compile %inputs/attention-bf16.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=BF16
// RUN: strata-compile %inputs/attention-bf16.mlir --target=nvidia-h200 --emit=lowered -o - | FileCheck %s --check-prefix=BF16-NVVM
// f32 inputs have no matrix intrinsic here: the lanes compute both products
// with multiply-adds, in the same one kernel.
// RUN: strata-compile %examples/attention.mlir --target=nvidia-a100 --emit=mlir -o - | FileCheck %s --check-prefix=F32
// A head dimension the intrinsic's k does not divide: the chain is left to
// the separate ops, with a remark that says why.
// RUN: sed -e 's/x64x/x40x/g' -e 's/x64xf16/x40xf16/g' %s > %t.d40.mlir
// RUN: strata-compile %t.d40.mlir --target=nvidia-a100 --emit=mlir -o %t.d40.out 2> %t.d40.err || true
// RUN: FileCheck %s --check-prefix=D40 --input-file %t.d40.err
#id = affine_map<(b, i, j) -> (b, i, j)>
func.func @attention(%q: tensor<4x100x64xf16>, %k: tensor<4x100x64xf16>, %v: tensor<4x100x64xf16>) -> tensor<4x100x64xf16> {
  %zero = arith.constant 0.0 : f16
  %kt0 = tensor.empty() : tensor<4x64x100xf16>
  %kt = linalg.transpose ins(%k : tensor<4x100x64xf16>) outs(%kt0 : tensor<4x64x100xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x100x100xf16>
  %s1 = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x100x64xf16>, tensor<4x64x100xf16>) outs(%s1 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x100x100xf16>) outs(%s0 : tensor<4x100x100xf16>) {
  ^bb0(%in: f16, %out: f16):
    %c = arith.constant 0.125 : f16
    %r = arith.mulf %in, %c : f16
    linalg.yield %r : f16
  } -> tensor<4x100x100xf16>
  %p0 = tensor.empty() : tensor<4x100x100xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x100x100xf16>) outs(%p0 : tensor<4x100x100xf16>) -> tensor<4x100x100xf16>
  %o0 = tensor.empty() : tensor<4x100x64xf16>
  %o1 = linalg.fill ins(%zero : f16) outs(%o0 : tensor<4x100x64xf16>) -> tensor<4x100x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x100x100xf16>, tensor<4x100x64xf16>) outs(%o1 : tensor<4x100x64xf16>) -> tensor<4x100x64xf16>
  return %o : tensor<4x100x64xf16>
}

// MAP-LABEL: func.func @attention
// MAP-NOT: linalg.
// MAP-NOT: memref<4x100x100
// One block per (head, 16 queries): 7 query tiles of the 100 tokens.
// MAP: scf.forall (%[[BH:.*]], %[[QT:.*]]) in (4, 7) {
// MAP: %[[SHARED:.*]] = memref.alloc() : memref<32000xi8, #strata.mem<"shared">>
// The Q tile, Kᵀ and V tiles of 64 keys (rows padded by 8 halves), the f32
// scores and the f32 P V product over the same bytes, P, the f32 output and
// the rows (maximum, sum, rescale factor, next maximum, and the partial
// maxima and sums of the two lanes of each row).
// MAP-NEXT: %[[Q:.*]] = memref.view %[[SHARED]][%c0][] : {{.*}} to memref<16x72xf16, #strata.mem<"shared">>
// MAP-NEXT: %[[KT:.*]] = memref.view %[[SHARED]][%c2304][] : {{.*}} to memref<64x72xf16, #strata.mem<"shared">>
// MAP-NEXT: %[[V:.*]] = memref.view %[[SHARED]][%c11520][] : {{.*}} to memref<64x72xf16, #strata.mem<"shared">>
// MAP-NEXT: %[[S:.*]] = memref.view %[[SHARED]][%c20736][] : {{.*}} to memref<16x66xf32, #strata.mem<"shared">>
// MAP-NEXT: %[[P:.*]] = memref.view %[[SHARED]][%c24960][] : {{.*}} to memref<16x72xf16, #strata.mem<"shared">>
// MAP-NEXT: %[[O:.*]] = memref.view %[[SHARED]][%c27264][] : {{.*}} to memref<16x66xf32, #strata.mem<"shared">>
// MAP-NEXT: %[[ROWS:.*]] = memref.view %[[SHARED]][%c31488][] : {{.*}} to memref<8x16xf32, #strata.mem<"shared">>
// MAP: scf.forall (%{{.*}}) in (1) {
// The Q tile in rows of 16-byte vectors, zero past the 100 queries; O = 0,
// max = -inf, sum = 0.
// MAP: arith.cmpi ult, %{{.*}}, %c100 : index
// MAP: vector.load %arg0[%[[BH]], {{.*}}] {alignment = 16 : i64} : memref<4x100x64xf16>, vector<8xf16>
// MAP: } else {
// MAP: vector.store {{.*}}, %[[Q]][{{.*}}] {alignment = 16 : i64} : memref<16x72xf16, #strata.mem<"shared">>, vector<8xf16>
// MAP: memref.store %cst{{.*}}, %[[ROWS]][%c0,
// MAP: gpu.barrier
// Two key tiles of 64; K read (in rows of K, through the transpose) and
// stored transposed, zero past the keys; V in rows.
// MAP: scf.for %[[KTILE:.*]] = %c0 to %c2 step %c1 {
// MAP: vector.load %arg1[%[[BH]], {{.*}}] {alignment = 16 : i64} : memref<4x100x64xf16>, vector<8xf16>
// MAP-COUNT-8: memref.store {{.*}}, %[[KT]]
// MAP: vector.load %arg2[%[[BH]], {{.*}}] {alignment = 16 : i64} : memref<4x100x64xf16>, vector<8xf16>
// MAP: vector.store {{.*}}, %[[V]]
// MAP: gpu.barrier
// S = Q Kᵀ: a k loop of 4 steps over the head dimension, 8 fragments.
// MAP: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16x8xf32>,
// MAP: vector.transfer_read %[[Q]]{{.*}} vector<16x16xf16>
// MAP-COUNT-8: vector.transfer_read %[[KT]]{{.*}} vector<16x8xf16>
// MAP-COUNT-8: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_f16"}
// MAP-COUNT-8: vector.transfer_write {{.*}}, %[[S]]
// MAP-NEXT: gpu.barrier
// Two lanes per row, 32 keys each: the scale (in f16, as the input does
// it), keys past the end at -inf for the maximum; the slices' maxima.
// MAP: scf.for {{.*}} = %c0 to %c32 step %c1 iter_args(%{{.*}} = %cst{{.*}}) -> (f32) {
// MAP: memref.load %[[S]]
// MAP: arith.truncf {{.*}} : f32 to f16
// MAP-NEXT: arith.mulf {{.*}} : f16
// MAP: arith.select {{.*}}, %cst{{.*}} : f32
// MAP: arith.maximumf
// MAP: memref.store {{.*}}, %[[ROWS]][
// MAP-NEXT: }
// MAP: gpu.barrier
// Then the row's maximum from both slices, P (0 past the keys) and the
// slices' sums; the row's first lane stores the factor and the new maximum.
// MAP: memref.load %[[ROWS]][%c0,
// MAP-COUNT-2: arith.maximumf
// MAP: scf.for {{.*}} = %c0 to %c32 step %c1 iter_args({{.*}}) -> (f32) {
// MAP: math.exp
// MAP: memref.store {{.*}}, %[[P]]
// MAP: scf.if
// MAP: math.exp
// MAP: memref.store {{.*}}, %[[ROWS]][%c2,
// MAP: memref.store {{.*}}, %[[ROWS]][%c3,
// MAP: gpu.barrier
// P V over the 64 keys (4 steps) into the scores' bytes.
// MAP: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16x8xf32>,
// MAP: vector.transfer_read %[[P]]{{.*}} vector<16x16xf16>
// MAP-COUNT-8: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_f16"}
// MAP: vector.transfer_write
// MAP: gpu.barrier
// l = l a + both sums, m = the new maximum; O = O a + P V.
// MAP: memref.store {{.*}}, %[[ROWS]][%c1,
// MAP: memref.load %[[ROWS]][%c3,
// MAP: memref.store {{.*}}, %[[ROWS]][%c0,
// MAP: memref.load %[[O]]
// MAP: memref.load %[[ROWS]][%c2,
// MAP: arith.mulf
// MAP-NEXT: arith.addf
// MAP: memref.store {{.*}}, %[[O]]
// After the last key tile: out = O / l for the queries that exist.
// MAP: gpu.barrier
// MAP: scf.if
// MAP: arith.divf
// MAP: arith.truncf {{.*}} : f32 to f16
// MAP: memref.store {{.*}}, %arg3[%[[BH]], {{.*}}] : memref<4x100x64xf16>
// MAP: {mapping = [#strata.grid<"sm", 1>, #strata.grid<"sm">], strata.schedule = #strata.schedule<{{.*}}block = ["sm", 16, 64], grid = [4, 7], groups = ["warp", 1], intrinsic = "mma_m16n8k16_f16", key_tiles = 2 : i64, kind = "attention"
// MAP-NOT: scf.forall

// NVVM-COUNT-1: gpu.launch_func
// NVVM-NOT: gpu.launch_func
// NVVM: gpu.module
// NVVM: nvvm.barrier0
// NVVM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<row>, num = 4
// NVVM: nvvm.ldmatrix {{.*}}layout = #nvvm.mma_layout<col>, num = 2
// NVVM: nvvm.mma.sync {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// NVVM: nvvm.barrier0
// NVVM: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// NVVM: nvvm.barrier0

// BF16-LABEL: func.func @attention
// BF16-NOT: memref<2x256x256
// BF16: scf.forall (%{{.*}}, %{{.*}}) in (2, 16) {
// BF16: memref.view {{.*}} to memref<16x136xbf16, #strata.mem<"shared">>
// BF16: memref.view {{.*}} to memref<128x72xbf16, #strata.mem<"shared">>
// BF16: memref.view {{.*}} to memref<64x136xbf16, #strata.mem<"shared">>
// BF16: scf.for %{{.*}} = %c0 to %c4 step %c1 {
// S: 8 steps of the head dimension 128; P V: 16 fragments of 8 values.
// BF16: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args({{.*}}) -> (vector<16x8xf32>,
// BF16-COUNT-8: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_bf16"}
// BF16: scf.for %{{.*}} = %c0 to %c4 step %c1 iter_args({{.*}}) -> (vector<16x8xf32>,
// BF16-COUNT-16: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_bf16"}
// BF16: kind = "attention"

// The bf16 products are bf16 mma.sync on the same ldmatrix fragments.
// BF16-NVVM-COUNT-1: gpu.launch_func
// BF16-NVVM: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// BF16-NVVM-NOT: nvvm.mma.sync {{.*}}<f16>

// F32-LABEL: func.func @attention
// F32-NOT: memref<8x256x256
// F32: scf.forall (%{{.*}}, %{{.*}}) in (8, 16) {
// F32: memref.view {{.*}} to memref<64x68xf32, #strata.mem<"shared">>
// F32: scf.for %{{.*}} = %c0 to %c4 step %c1 {
// S = Q Kᵀ by the lanes: 64-long dot products from the scratchpad.
// F32: scf.for {{.*}} = %c0 to %c64 step %c1 iter_args({{.*}}) -> (f32) {
// F32: math.fma
// F32: gpu.barrier
// F32: math.exp
// F32: gpu.barrier
// F32: math.fma
// F32: gpu.barrier
// F32: arith.divf
// F32-NOT: vector.contract
// F32: kind = "attention"

// D40: remark: strata-map-hierarchy: attention is mapped as separate ops: head dimensions 40 and 40 are not multiples of 'mma_m16n8k16_f16' k (16) and n (8), or fewer than two of its k
