// RUN: rm -f %t.so
// RUN: not strata-compile %s --target=h200 -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so
// RUN: not strata-run %s --target=h200 2>&1 | FileCheck %s

// CHECK: unknown target 'h200'; expected one of: host, host-x86-avx2, host-x86-avx512, nvidia-a100, nvidia-h100-sxm, nvidia-h200, tile-blackhole-p150, tile-wormhole-n150, or a path to a .json description
// CHECK: error: --target=h200: no usable hardware description

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
