// strata-map-hierarchy on batched contractions: the batch loops become the
// outermost grid dim of the block loop (z on the GPU), every load and store
// indexes the block's batch, the zero fill and the epilogue still fold in.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=A100
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=H200

// A100-LABEL: func.func @bmm_f32
// A100-NOT: linalg.
// One block per (batch, 32-row block): the batch is the outermost dim.
// A100: scf.forall (%[[B:.*]], %[[BM:.*]], %[[BN:.*]]) in (4, 4, 1) {
// A100: memref.load %arg0[%[[B]], %{{.*}}, %{{.*}}] : memref<4x128x256xf32>
// A100: memref.load %arg1[%[[B]], %{{.*}}, %{{.*}}] : memref<4x256x64xf32>
// A100: gpu.barrier
// A100: vector.fma
// The zero fill folded: C is stored, never loaded.
// A100-NOT: memref.load %arg2
// A100: memref.store %{{.*}}, %arg2[%[[B]], %{{.*}}, %{{.*}}] : memref<4x128x64xf32>
// A100: } {mapping = [#strata.grid<"sm", 2>, #strata.grid<"sm", 1>, #strata.grid<"sm">], strata.schedule = #strata.schedule<{{{.*}}grid = [4, 4, 1]{{.*}}intrinsic = "fma"
func.func @bmm_f32(%a: memref<4x128x256xf32>, %b: memref<4x256x64xf32>, %c: memref<4x128x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x128x64xf32>)
  linalg.batch_matmul ins(%a, %b : memref<4x128x256xf32>, memref<4x256x64xf32>) outs(%c : memref<4x128x64xf32>)
  return
}

// -----

// The bf16 mma.sync on the A100 and wgmma on the H200, each fed by 16-byte
// copies of the block's batch; the f32-to-bf16 conversion is the epilogue
// and the f32 temporary disappears.
// A100-LABEL: func.func @bmm_bf16
// A100-NOT: memref.alloc() : memref<8x256x384xf32>
// A100: scf.forall (%[[B:.*]], %{{.*}}, %{{.*}}) in (8, 4, 6) {
// A100: vector.load %arg0[%[[B]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<8x256x512xbf16>, vector<8xbf16>
// A100: vector.load %arg1[%[[B]], %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<8x512x384xbf16>, vector<8xbf16>
// A100: vector.contract {{.*}} {strata.intrinsic = "mma_m16n8k16_bf16"}
// A100: arith.truncf %{{.*}} : f32 to bf16
// A100-NEXT: memref.store %{{.*}}, %arg2[%[[B]], %{{.*}}, %{{.*}}] : memref<8x256x384xbf16>
// A100: strata.schedule = #strata.schedule<{{{.*}}grid = [8, 4, 6]
// H200-LABEL: func.func @bmm_bf16
// Bulk copies (TMA) of whole tiles: each operand seen as one matrix of all
// its rows, a batch element's tile at row b x rows + offset (the tiles
// divide the rows: none crosses into the next batch element).
// H200: %[[FA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : memref<8x256x512xbf16> into memref<2048x512xbf16>
// H200-NEXT: %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : memref<8x512x384xbf16> into memref<4096x384xbf16>
// H200-NEXT: scf.forall (%[[B:.*]], %[[BM:.*]], %{{.*}}) in (8, 4, 3) {
// H200: %[[ROW0:.*]] = arith.muli %[[BM]], %c64 : index
// H200: %[[AB:.*]] = arith.muli %[[B]], %c256 : index
// H200-NEXT: %[[AROW:.*]] = arith.addi %[[AB]], %[[ROW0]] : index
// H200-NEXT: memref.subview %[[FA]][%[[AROW]], 0] [64, 64] [1, 1]
// H200-NEXT: memref.copy {{.*}} {strata.bulk_copy_stage = 0 : i64}
// H200-NEXT: %[[KB:.*]] = arith.muli %[[B]], %c512 : index
// H200-NEXT: memref.subview %[[FB]][%[[KB]], %{{.*}}] [64, 128] [1, 1]
// H200: vector.contract {{.*}} {strata.intrinsic = "wgmma_m64n128k16_bf16"}
// H200: memref.store %{{.*}}, %arg2[%[[B]], %{{.*}}, %{{.*}}] : memref<8x256x384xbf16>
// H200: bulk_copies = true, collective = true
func.func @bmm_bf16(%a: memref<8x256x512xbf16>, %b: memref<8x512x384xbf16>, %out: memref<8x256x384xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x256x384xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x256x384xf32>)
  linalg.batch_matmul ins(%a, %b : memref<8x256x512xbf16>, memref<8x512x384xbf16>) outs(%c : memref<8x256x384xf32>)
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<8x256x384xf32>) outs(%out : memref<8x256x384xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %c : memref<8x256x384xf32>
  return
}

// -----

// B is one matrix for every batch element (broadcast): its loads have no
// batch index.
// A100-LABEL: func.func @shared_b
// A100: scf.forall (%[[B:.*]], %{{.*}}, %{{.*}}) in (3, 4, 1) {
// Blocks of 32 rows do not divide 100: guarded loads (zero outside).
// A100: scf.if
// A100-NEXT: memref.load %arg0[%[[B]], %{{.*}}, %{{.*}}] : memref<3x100x64xf32>
// A100: scf.if
// A100-NEXT: memref.load %arg1[%{{.*}}, %{{.*}}] : memref<64x48xf32>
// No fill: the old C is added, in bounds only.
// A100: scf.if
// A100: memref.load %arg2[%[[B]], %{{.*}}, %{{.*}}] : memref<3x100x48xf32>
// A100: arith.addf
// A100: memref.store %{{.*}}, %arg2[%[[B]], %{{.*}}, %{{.*}}] : memref<3x100x48xf32>
func.func @shared_b(%a: memref<3x100x64xf32>, %b: memref<64x48xf32>, %c: memref<3x100x48xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>,
                                   affine_map<(b, i, j, k) -> (k, j)>,
                                   affine_map<(b, i, j, k) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x100x64xf32>, memref<64x48xf32>) outs(%c : memref<3x100x48xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
