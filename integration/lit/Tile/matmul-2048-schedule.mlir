// The scratchpad model's schedule of a 2048^3 bf16 matmul on the n150, with
// an f32 result (integration/bench/tile_table.py) and with a bf16 result
// (docs/tile-target.md's table). The model prices reloading a partial-sum
// tile at the matrix intrinsic's operand rate (64 B per cycle: one
// unpacker), not L1's 256, so k steps of 2 tiles, which reload the partial
// sums at every step, lose to steps of 8.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=mlir -o - | FileCheck %s --check-prefix=MAPPED
// The cycle model's prediction for the f32 result: 231,921 cycles, the
// unpackers feeding two bf16 tiles per HiFi2 matmul at 80 B per cycle
// (tt-metal measured 202,053 cycles for the bf16-result 2048^3 at HiFi2,
// docs/tile-target.md "Calibration").
// RUN: strata-run %s --target=tile-wormhole-n150 --entry=matmul_f32 | FileCheck %s --check-prefix=CYCLES

// MAPPED-LABEL: func.func @matmul_f32(
// MAPPED:         linalg.matmul {strata.schedule = #strata.schedule<{{.*}}grid = [256, 256, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc", multicast = [0, 1]{{.*}}stages = 2 : i64{{.*}}tiles = [{memory = "l1", sizes = [256, 256, 256]}]
// MAPPED-LABEL: func.func @matmul_bf16(
// MAPPED:         linalg.matmul {strata.schedule = #strata.schedule<{{.*}}grid = [256, 256, 0], grid_level = "core", kind = "contraction", matrix_intrinsic = "matmul_tiles_bf16_f32acc", multicast = [0, 1]{{.*}}stages = 3 : i64{{.*}}tiles = [{memory = "l1", sizes = [256, 128, 256]}]

// CYCLES:      matmul_f32: ran on tile-wormhole-n150
// CYCLES-NEXT: cycle model (tile-wormhole-n150 at 1.00 GHz): {{2[0-4][0-9][0-9][0-9][0-9]}} cycles
// CYCLES-NEXT:   bound: compute
// CYCLES-NEXT:   matrix engine: 262144 tile matmuls at HiFi2, {{5[0-9]\.[0-9]}}% utilization
func.func @matmul_f32(%a: tensor<2048x2048xbf16>, %b: tensor<2048x2048xbf16>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2048x2048xbf16>, tensor<2048x2048xbf16>)
                     outs(%f : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}

func.func @matmul_bf16(%a: tensor<2048x2048xbf16>, %b: tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<2048x2048xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<2048x2048xbf16>, tensor<2048x2048xbf16>)
                     outs(%f : tensor<2048x2048xbf16>) -> tensor<2048x2048xbf16>
  return %c : tensor<2048x2048xbf16>
}
