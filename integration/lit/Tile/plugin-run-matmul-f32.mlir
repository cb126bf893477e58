// An f32 matmul on the tile chip: the matrix engine reads f32 operands as
// TF32 (10 mantissa bits, truncated) at HiFi4 with an f32 accumulator, so
// the check's tolerance is TF32's (2.5e-3), not f32's.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=mlir -o - | FileCheck %s --check-prefix=SCHED

// SCHED: matrix_intrinsic = "matmul_tiles_tf32_f32acc"
// CHECK:      matmul_f32: ran on tile-wormhole-n150
// CHECK:        matrix engine: 512 tile matmuls at HiFi4
// CHECK:      matmul_f32: check result #0 (256x256xf32): relative error {{[0-9.]+e-04}} (tolerance {{[0-9.]+e-03.*}}) PASS
func.func @matmul_f32(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>)
                     outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
