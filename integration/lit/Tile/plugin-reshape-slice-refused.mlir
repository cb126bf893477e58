// A function with a reshape and an op no tile program takes (a strided
// slice of the reshaped tensor) is refused naming that op. It crashed: the
// sequence of programs, chosen because of the reshape, had no part to name
// in its message (found by the differential test, seed 1484713907 case 20).
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: the tile target lowers a function made of
// CHECK: note: not lowered: memref.subview
func.func @case(%arg0: tensor<61x61xf32>) -> tensor<195xf32> {
  %v1 = tensor.collapse_shape %arg0 [[0, 1]] : tensor<61x61xf32> into tensor<3721xf32>
  %v2 = tensor.extract_slice %v1[1386] [419] [2] : tensor<3721xf32> to tensor<419xf32>
  %v3 = tensor.extract_slice %v2[8] [195] [2] : tensor<419xf32> to tensor<195xf32>
  return %v3 : tensor<195xf32>
}
