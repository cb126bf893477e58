// A function the tile target cuts into programs reports the part it cannot
// lower: here a row sum into a vector, which row programs do not write to
// DRAM, after a matmul.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: the tile target's row programs end with a 2-D result
// CHECK: error: the tile target runs @mm_rowsum as 2 programs; part 1 (starting with 'linalg.fill') is not lowered
func.func @mm_rowsum(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %ve = tensor.empty() : tensor<64xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%ve : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%c : tensor<64x64xf32>) outs(%vi : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %s : tensor<64xf32>
}
