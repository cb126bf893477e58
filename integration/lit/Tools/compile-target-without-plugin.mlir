// A shipped chip whose plugin is not built in can be inspected but not
// compiled for; the message says which plugin is missing.
// RUN: rm -f %t.so
// RUN: not strata-compile %s --target=tile-wormhole-n150 -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so

// CHECK: unknown plugin "tile": expected one of cpu, nvidia
// CHECK: error: --target=tile-wormhole-n150: no usable hardware description

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
