// A chip whose plugin is not built in can be inspected but not compiled
// for; the message says which plugin is missing and lists those built in.
// RUN: rm -f %t.so
// RUN: not strata-compile %s --target=%S/../Inputs/unbuilt-plugin.json -o %t.so 2>&1 | FileCheck %s
// RUN: test ! -e %t.so

// CHECK: at /plugin: unknown plugin "vendor-npu": expected one of cpu, nvidia, tile
// CHECK: error: --target={{.*}}unbuilt-plugin.json: no usable hardware description

func.func @copy(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
