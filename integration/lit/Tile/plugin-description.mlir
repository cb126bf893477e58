// The schedule follows the description: the same 4096^3 matmul on the n150
// (8x8 cores, 1.43 MiB of L1) and on a copy with a 4x4 grid and half the
// L1. Each core then covers twice the rows and columns, the blocks it
// keeps in L1 shrink to fit, and the predicted time grows from about
// 0.82 ms to 2.7 ms (unittests/Schedule/ScratchpadModelTest.cpp checks the
// direction for grid, L1 and DRAM changes).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=mlir -o - | FileCheck %s --check-prefix=N150
// RUN: strata-compile %s --target=%inputs/tile-4x4-half-l1.json --emit=mlir -o - | FileCheck %s --check-prefix=SMALL
// RUN: strata-compile %s --target=%inputs/tile-4x4-half-l1.json --emit=lowered -o - | FileCheck %s --check-prefix=SMALL-TILE

// N150:  footprint_bytes = {l1 = 1343552 : i64}, grid = [512, 512, 0]
// N150-SAME: predicted_s = 8.{{[0-9]+}}E-4
// N150-SAME: tiles = [{memory = "l1", sizes = [256, 256, 512]}]
// The k step halves (256 -> 128) so the blocks fit 749,568 bytes.
// SMALL: footprint_bytes = {l1 = 688160 : i64}, grid = [1024, 1024, 0]
// SMALL-SAME: predicted_s = 0.0027{{[0-9]+}}
// SMALL-SAME: tiles = [{memory = "l1", sizes = [256, 256, 128]}]
// SMALL-TILE: tile.kernel reader cores [0, 0]-[3, 3]
func.func @matmul(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<4096x4096xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>)
                     outs(%init : tensor<4096x4096xbf16>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}
