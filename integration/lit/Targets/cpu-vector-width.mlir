// Elementwise code is vectorized at the description's f32 vector width (16
// lanes for a 512-bit chip, 8 for a 256-bit one), with a register tile of as
// many vectors as cover the FMA latency within the registers the operands
// need: 8 of 32 registers on AVX-512, 4 of 16 on AVX2.
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx512 --strata-prepare --strata-schedule | FileCheck %s --check-prefix=S512
// RUN: strata-opt %s --strata-attach-target=target=host-x86-avx2 --strata-prepare --strata-schedule | FileCheck %s --check-prefix=S256
// RUN: strata-compile %s --target=host-x86-avx512 --emit=lowered -o - | FileCheck %s --check-prefix=AVX512
// RUN: strata-compile %s --target=host-x86-avx2 --emit=lowered -o - | FileCheck %s --check-prefix=AVX2
// RUN: strata-compile %s --target=host-x86-avx2 --emit=llvm -o - | FileCheck %s --check-prefix=LL

// S512: register = [1, 128]
// S512-SAME: vector_dim = 1 : i64, vector_width = 16 : i64
// S256: register = [1, 32]
// S256-SAME: vector_dim = 1 : i64, vector_width = 8 : i64
// AVX512-LABEL: llvm.func @scale
// AVX512: llvm.fmul {{.*}} : vector<128xf32>
// AVX2-LABEL: llvm.func @scale
// AVX2: llvm.fmul {{.*}} : vector<32xf32>
// LL: fmul <32 x float>
func.func @scale(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %c = arith.constant dense<2.0> : tensor<64x256xf32>
  %y = arith.mulf %x, %c : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
