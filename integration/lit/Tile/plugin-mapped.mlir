// The mapped IR for a tile chip (strata-compile --emit=mlir): the core
// keeps each op whole on buffers (results as trailing output arguments)
// with the scratchpad model's schedule; no grid loops or copies, which the
// tile kernels implement. Then S5 (--emit=lowered) replaces the function
// by a tile program of the same name.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=mlir -o - | FileCheck %s --check-prefix=MAPPED
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWERED

// MAPPED-LABEL: func.func @matmul(
// MAPPED-SAME:    %[[A:.*]]: memref<512x256xbf16>, %[[B:.*]]: memref<256x512xbf16>, %[[C:.*]]: memref<512x512xf32>) {
// MAPPED-NOT:     scf.forall
// MAPPED:         linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<512x512xf32>)
// MAPPED-NEXT:    linalg.matmul {strata.schedule = #strata.schedule<{{.*}}grid = [64, 64, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc"{{.*}}register = [32, 32, 32]{{.*}}}>} ins(%[[A]], %[[B]] : memref<512x256xbf16>, memref<256x512xbf16>) outs(%[[C]] : memref<512x512xf32>)
// MAPPED-NEXT:    return

// LOWERED-NOT:  func.func
// LOWERED:      tile.program @matmul {
// LOWERED-NEXT:   tile.dram_tensor @arg0 input : !tile.dram<512x256xbf16, #tile.interleaved>
// LOWERED-NEXT:   tile.dram_tensor @arg1 input : !tile.dram<256x512xbf16, #tile.interleaved>
// LOWERED-NEXT:   tile.dram_tensor @arg2 output : !tile.dram<512x512xf32, #tile.interleaved>
// LOWERED:        tile.kernel reader cores [0, 0]-[7, 7] {
// LOWERED:        tile.kernel compute cores [0, 0]-[7, 7] attributes {dst_type = f32, fidelity = "HiFi2"} {
// LOWERED:        tile.kernel writer cores [0, 0]-[7, 7] {
func.func @matmul(%a: tensor<512x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<512x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<512x512xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<512x512xf32>) -> tensor<512x512xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x256xbf16>, tensor<256x512xbf16>)
                     outs(%init : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
