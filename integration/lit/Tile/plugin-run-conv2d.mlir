// A convolution (NHWC input, HWCF filter) with a bias is the matmul program
// on its implicit GEMM: A's rows are output pixels, its columns the taps'
// channels; the reader gathers each A tile from the input (declared as
// [pixels, channels], `flatten`) in runs of consecutive rows, one byte read
// per run and face column, the filter is B as [taps x channels, filters],
// and the bias runs as the epilogue.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER:      tile.program @conv {
// LOWER-NEXT:   tile.dram_tensor @arg0 input {flatten, host_shape = array<i64: 1, 18, 18, 32>} : !tile.dram<352x32xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg1 input {flatten, host_shape = array<i64: 3, 3, 32, 32>} : !tile.dram<288x32xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg2 input {host_shape = array<i64: 32>, replicate_rows} : !tile.dram<32x32xf32, #tile.interleaved>
// LOWER-NEXT:   tile.dram_tensor @arg3 output {flatten, host_shape = array<i64: 1, 16, 16, 32>} : !tile.dram<256x32xf32, #tile.interleaved>
// LOWER:        tile.kernel reader
// LOWER:          %[[TAP:.*]] = arith.divui %{{.*}}, %c1 : index
// LOWER:          scf.for %[[R:.*]] = %c0 to %c32 step %c1 {
// LOWER:            arith.cmpi ult, %{{.*}}, %c256 : index
// LOWER:            arith.minui
// LOWER:            tile.noc_read_bytes @arg0[%[[PAGE:[0-9]+]]] offset %{{[0-9]+}} size %[[SIZE:[0-9]+]] -> %{{[0-9]+}}
// LOWER:            tile.noc_read_bytes @arg0[%[[PAGE]]] offset %{{[0-9]+}} size %[[SIZE]] -> %{{[0-9]+}}
// LOWER:          tile.noc_read_barrier
// LOWER:        tile.kernel compute
// LOWER:          tile.matmul_tiles @in0
// LOWER:          tile.binary_dst add
// LOWER:        tile.kernel writer
// LOWER:          tile.noc_read_tile @arg1

// CHECK:      conv: ran on tile-wormhole-n150
// CHECK:        bound: noc
// CHECK:        matrix engine: 72 tile matmuls at HiFi4
// CHECK:      conv: check result #0 (1x16x16x32xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
func.func @conv(%input: tensor<1x18x18x32xf32>, %filter: tensor<3x3x32x32xf32>, %bias: tensor<32xf32>) -> tensor<1x16x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x16x16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x18x18x32xf32>, tensor<3x3x32x32xf32>) outs(%init : tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv, %bias : tensor<1x16x16x32xf32>, tensor<32xf32>) outs(%empty : tensor<1x16x16x32xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %s = arith.addf %c, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16x32xf32>
  return %y : tensor<1x16x16x32xf32>
}
