// L1 overflow is found at compile time (S3) and said exactly: on a
// description with 8 KB of L1 per core, even the smallest blocks of the
// matmul (one tile of each operand, staged twice, the partial sums and two
// output tiles) do not fit.
// RUN: not strata-compile %s --target=%inputs/tile-tiny-l1.json --emit=mlir -o /dev/null 2>&1 | FileCheck %s

// CHECK: plugin-l1-overflow.mlir:[[@LINE+5]]:8: error: 'linalg.matmul' does not fit in scratchpad 'l1': its smallest blocks (one 32x32x32 tile of the matrix intrinsic matmul_tiles_bf16_f32acc) need 16384 bytes per 'core' (a 2 x 1x1 tiles = 4096 B, b 2 x 1x1 tiles = 4096 B, partial sums 1 x 1x1 tiles = 4096 B, output 2 x 1x1 tiles = 4096 B), more than the 8192 bytes of 'l1'
func.func @matmul(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<256x256xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>)
                     outs(%init : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
