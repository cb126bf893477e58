// A bf16 convolution: bf16 A and B tiles (a row of 16 channels is 32
// bytes of a run), HiFi2. A 2x2 filter keeps the bf16-throughout host reference
// within bf16's tolerance.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: arith.minui
// LOWER: tile.noc_read_bytes @arg0[%{{[0-9]+}}] offset %{{[0-9]+}} size %{{[0-9]+}} -> %{{[0-9]+}}
// LOWER: tile.kernel compute {{.*}} fidelity = "HiFi2"

// CHECK: conv: check result #0 (1x11x11x32xbf16): relative error {{.*}} (tolerance 2.0e-02) PASS
func.func @conv(%input: tensor<1x12x12x32xbf16>, %filter: tensor<2x2x32x32xbf16>) -> tensor<1x11x11x32xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<1x11x11x32xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%empty : tensor<1x11x11x32xbf16>) -> tensor<1x11x11x32xbf16>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %filter : tensor<1x12x12x32xbf16>, tensor<2x2x32x32xbf16>) outs(%init : tensor<1x11x11x32xbf16>) -> tensor<1x11x11x32xbf16>
  return %conv : tensor<1x11x11x32xbf16>
}
