// A matmul whose operand types no matrix intrinsic of the chip takes is an
// error at the op that lists the intrinsics the description has.
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: 'linalg.matmul': no matrix intrinsic of 'tile-wormhole-n150' issued by a 'core' takes f16 x f16 operands (the description has: matmul_tiles_bf16_f32acc (bf16 x bf16 -> f32), matmul_tiles_tf32_f32acc (f32 x f32 -> f32), matmul_tiles_bf16 (bf16 x bf16 -> bf16))
func.func @matmul_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>)
                     outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
