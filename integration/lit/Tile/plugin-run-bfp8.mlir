// Matmul operands stored as block floats: a copy of the n150 whose first
// intrinsic has operand_format bfp8 (input_mantissa_bits 6). The lowering
// declares A and B as !tile.bfp8 tensors and buffers (1088-byte tiles), the
// runtime converts the bf16 host data on the way in, and the check allows
// bfp8's precision (2.56 x 2^-6). bfp4 (2 bits) likewise.
// RUN: python3 %S/../../tile_calibration/block_float_chip.py %descriptions/tile/descriptions/tile-wormhole-n150.json bfp8 > %t-bfp8.json
// RUN: strata-compile %s --target=%t-bfp8.json --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=%t-bfp8.json --check | FileCheck %s --check-prefix=RUN8
// RUN: python3 %S/../../tile_calibration/block_float_chip.py %descriptions/tile/descriptions/tile-wormhole-n150.json bfp4 LoFi > %t-bfp4.json
// RUN: strata-run %s --target=%t-bfp4.json --check | FileCheck %s --check-prefix=RUN4
// RUN: not python3 %S/../../tile_calibration/block_float_chip.py %descriptions/tile/descriptions/tile-wormhole-n150.json bfp16 2>&1 | FileCheck %s --check-prefix=BAD

// LOWER: tile.dram_tensor @arg0 input : !tile.dram<256x512x!tile.bfp8, #tile.interleaved>
// LOWER: tile.dram_tensor @arg1 input : !tile.dram<512x256x!tile.bfp8, #tile.interleaved>
// LOWER: tile.dram_tensor @arg2 output : !tile.dram<256x256xbf16, #tile.interleaved>
// LOWER: tile.circular_buffer @in0 {{.*}}!tile.tile<32x32x!tile.bfp8>
// LOWER: tile.kernel compute {{.*}}fidelity = "HiFi2"
// RUN8: matrix engine: 1024 tile matmuls at HiFi2
// RUN8: DRAM: 0.41 MB moved
// RUN8: check result #0 (256x256xbf16): relative error {{[0-9.]+}}e-03 (tolerance 4.0e-02) PASS
// RUN4: matrix engine: 1024 tile matmuls at LoFi
// RUN4: check result #0 (256x256xbf16): relative error {{[0-9.]+}}e-0{{[12]}} (tolerance 6.4e-01) PASS
// BAD: format must be bfp8 or bfp4, got 'bfp16'
func.func @matmul(%a: tensor<256x512xbf16>, %b: tensor<512x256xbf16>) -> tensor<256x256xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<256x256xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xbf16>, tensor<512x256xbf16>)
                     outs(%init : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
