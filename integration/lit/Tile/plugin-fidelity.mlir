// The kernels' fidelity is the matrix intrinsic's default_fidelity: HiFi2
// for bf16 operands in the shipped n150, HiFi4 in a copy that says so (the
// matmul then takes 64 instead of 32 cycles per tile; bf16 x bf16 -> f32
// checks exactly at every fidelity: the emulator multiplies in full). A
// fidelity the intrinsic does not list is an error naming the field and the
// choices.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=HIFI2
// RUN: sed 's/"default_fidelity": "HiFi2"/"default_fidelity": "HiFi4"/' %descriptions/tile/descriptions/tile-wormhole-n150.json > %t-hifi4.json
// RUN: strata-compile %s --target=%t-hifi4.json --emit=lowered -o - | FileCheck %s --check-prefix=HIFI4
// RUN: strata-run %s --target=%t-hifi4.json --check | FileCheck %s --check-prefix=RUN4
// RUN: sed 's/"default_fidelity": "HiFi2"/"default_fidelity": "HiFi8"/' %descriptions/tile/descriptions/tile-wormhole-n150.json > %t-bad.json
// RUN: not strata-compile %s --target=%t-bad.json --emit=lowered -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// HIFI2: tile.kernel compute {{.*}}fidelity = "HiFi2"
// HIFI4: tile.kernel compute {{.*}}fidelity = "HiFi4"
// RUN4:      matrix engine: 128 tile matmuls at HiFi4
// RUN4:      check result #0 (128x128xf32): relative error {{.*}} PASS
// BAD: error: at /matrix/0/default_fidelity: expected one of the intrinsic's fidelities (LoFi, HiFi2, HiFi3, HiFi4), got "HiFi8"
func.func @matmul(%a: tensor<128x256xbf16>, %b: tensor<256x128xbf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x256xbf16>, tensor<256x128xbf16>)
                     outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}
