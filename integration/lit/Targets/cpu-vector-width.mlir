// The cpu plugin vectorizes innermost loops at the description's f32 vector
// width: 16 lanes for a 512-bit chip, 8 for a 256-bit one.
// RUN: strata-compile %s --target=host-x86-avx512 --emit=lowered -o - | FileCheck %s --check-prefix=AVX512
// RUN: strata-compile %s --target=host-x86-avx2 --emit=lowered -o - | FileCheck %s --check-prefix=AVX2
// RUN: strata-compile %s --target=host-x86-avx2 --emit=llvm -o - | FileCheck %s --check-prefix=LL

// AVX512-LABEL: llvm.func @scale
// AVX512: llvm.fmul {{.*}} : vector<16xf32>
// AVX2-LABEL: llvm.func @scale
// AVX2: llvm.fmul {{.*}} : vector<8xf32>
// LL: fmul <8 x float>
func.func @scale(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %c = arith.constant dense<2.0> : tensor<64x256xf32>
  %y = arith.mulf %x, %c : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
