// strata-map-hierarchy on row reductions: one group (warp) per output
// element, its lanes striding over the row from the combining op's neutral
// element, a butterfly of gpu.shuffle xor over the description's lane count,
// lane 0 storing; a constant fill of the output right before folds in.
// REQUIRES: nvidia-plugin
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-a100},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=A100
// RUN: strata-opt %s --split-input-file --pass-pipeline="builtin.module(strata-attach-target{target=nvidia-h200},func.func(strata-map-hierarchy),canonicalize)" | FileCheck %s --check-prefix=H200

// A100-LABEL: func.func @row_max
// A100-NOT: linalg.
// 7 rows, one warp each: fewer rows than SMs, so one warp per block.
// A100: scf.forall (%[[BLOCK:.*]]) in (7) {
// A100-NEXT: scf.forall (%{{.*}}) in (1) {
// A100-NEXT: scf.forall (%[[LANE:.*]]) in (32) {
// Rows of 100: lanes stride by 32 from their id, starting at -inf.
// A100-NEXT: %[[P:.*]] = scf.for %[[E:.*]] = %[[LANE]] to %c100 step %c32 iter_args(%[[ACC:.*]] = %cst{{.*}}) -> (f32) {
// A100-NEXT: %[[X:.*]] = memref.load %arg0[%[[BLOCK]], %[[E]]] : memref<7x100xf32>
// A100-NEXT: %[[M:.*]] = arith.maximumf %[[X]], %[[ACC]] : f32
// A100-NEXT: scf.yield %[[M]] : f32
// A100: %[[S16:.*]], %{{.*}} = gpu.shuffle xor %[[P]], %c16_i32, %c32_i32 : f32
// A100-NEXT: %[[R16:.*]] = arith.maximumf %[[P]], %[[S16]] : f32
// A100-NEXT: gpu.shuffle xor %[[R16]], %c8_i32, %c32_i32 : f32
// A100: gpu.shuffle xor %{{.*}}, %c4_i32, %c32_i32 : f32
// A100: gpu.shuffle xor %{{.*}}, %c2_i32, %c32_i32 : f32
// A100: %[[S1:.*]], %{{.*}} = gpu.shuffle xor %[[R2:.*]], %c1_i32, %c32_i32 : f32
// A100-NEXT: %[[TOTAL:.*]] = arith.maximumf %[[R2]], %[[S1]] : f32
// A100-NEXT: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0 : index
// A100-NEXT: scf.if %[[FIRST]] {
// The fill of -inf folded (max(-inf, total) = total).
// A100-NEXT: memref.store %[[TOTAL]], %arg1[%[[BLOCK]]] : memref<7xf32>
// A100: strata.schedule = #strata.schedule<{fill_folded = true, grid = [7], groups = ["warp", 1], reduction = [7, 100], rows_per_group = 1 : i64}>
func.func @row_max(%x: memref<7x100xf32>, %m: memref<7xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%m : memref<7xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<7x100xf32>) outs(%m : memref<7xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maximumf %v, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Layernorm's variance: a row operand broadcast along the row; 1000 rows
// fill the H200's 132 SMs with blocks of 4 warps (16 would leave 63
// blocks), and 1000 / 4 divides: no row guard.
// H200-LABEL: func.func @row_sqsum
// H200: scf.forall (%[[BLOCK:.*]]) in (250) {
// H200-NEXT: scf.forall (%[[G:.*]]) in (4) {
// H200-NEXT: scf.forall (%[[LANE:.*]]) in (32) {
// H200-NOT: scf.if
// H200: %[[ROW:.*]] = arith.addi %{{.*}}, %[[G]] : index
// H200: scf.for %[[E:.*]] = %[[LANE]] to %c768 step %c32 iter_args(%[[ACC:.*]] = %cst{{.*}}) -> (f32) {
// H200-DAG: memref.load %arg0[%[[ROW]], %[[E]]] : memref<1000x768xf32>
// H200-DAG: memref.load %arg1[%[[ROW]]] : memref<1000xf32>
// H200: arith.subf
// H200: arith.mulf
// H200: arith.addf %[[ACC]], %{{.*}} : f32
// H200-COUNT-5: gpu.shuffle xor
// No fill: the old value is added once, by lane 0.
// H200: scf.if
// H200-NEXT: %[[OLD:.*]] = memref.load %arg2[%[[ROW]]] : memref<1000xf32>
// H200-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// H200-NEXT: memref.store %[[NEW]], %arg2[%[[ROW]]] : memref<1000xf32>
func.func @row_sqsum(%x: memref<1000x768xf32>, %mean: memref<1000xf32>, %s: memref<1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : memref<1000x768xf32>, memref<1000xf32>) outs(%s : memref<1000xf32>) {
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %acc, %d2 : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// 999 rows in blocks of 4 warps: the last block's fourth warp has no row;
// the guard is the same for all lanes of a warp (its shuffles stay whole).
// H200-LABEL: func.func @odd_rows
// H200: scf.forall (%{{.*}}) in (250) {
// H200: scf.forall (%{{.*}}) in (32) {
// H200: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c999 : index
// H200-NEXT: scf.if %[[IN]] {
// H200: gpu.shuffle xor
func.func @odd_rows(%x: memref<999x40xf16>, %s: memref<999xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%s : memref<999xf16>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<999x40xf16>) outs(%s : memref<999xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %r = arith.addf %v, %acc : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// A convolution as a row reduction (fallback): one warp per output element
// reducing over kh x kw x c, the window's input index computed from the
// loops (oh + kh).
// A100-LABEL: func.func @conv
// 256 outputs: blocks of 2 warps give the A100's 108 SMs 128 blocks.
// A100: scf.forall (%{{.*}}) in (128) {
// A100-NEXT: scf.forall (%{{.*}}) in (2) {
// A100: scf.for %{{.*}} = %{{.*}} to %c72 step %c32
// A100: %[[H:.*]] = arith.addi
// A100: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x10x10x8xf32>
// A100: memref.load %arg1[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<3x3x8x4xf32>
// A100: arith.mulf
// A100: arith.addf
// A100-COUNT-5: gpu.shuffle xor
// A100: memref.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<1x8x8x4xf32>
func.func @conv(%in: memref<1x10x10x8xf32>, %f: memref<3x3x8x4xf32>, %out: memref<1x8x8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x8x8x4xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : memref<1x10x10x8xf32>, memref<3x3x8x4xf32>) outs(%out : memref<1x8x8x4xf32>)
  return
}
