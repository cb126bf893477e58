// A dot of rows of 362 f32 tiles (a vector times a matrix of 11557 rows):
// its row program holds the two operands' rows and their products, 4.3 MB
// with one row each, more than L1. The lowering says so; it produced a
// program that stopped in the verifier ("'tile.circular_buffer' op does
// not fit in L1", differential seed 5 case 0).
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: the tile target's row program holds rows of 362 tiles in {{[0-9]+}} buffers: {{[0-9]+}} bytes, more than the 1499136 bytes of L1
// CHECK-NOT: does not verify
func.func @vecmat(%v: tensor<11557xf32>, %m: tensor<11557x8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.vecmat ins(%v, %m : tensor<11557xf32>, tensor<11557x8xf32>) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
