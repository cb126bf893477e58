// An elementwise op adding terms to its output's old value (as a
// depthwise convolution or a pooling becomes, one term per window
// position over slices of the input) runs as a sequence: a copy program
// per slice, the fill alone (the elementwise op yielding its value), and
// the op, which reads the filled output from DRAM as an input of its own
// and writes it back. It was refused ("not lowered: memref.subview",
// then "this op accumulates into a buffer that its program reads from
// DRAM").
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s

// LOWER: tile.program @terms.0
// LOWER: tile.noc_read_bytes
// LOWER: tile.program @terms.1
// LOWER: tile.noc_read_bytes
// LOWER: tile.program @terms.2
// LOWER: tile.unary_scalar add dst[%c0], 1.000000e+00
// LOWER: tile.program @terms.3
// LOWER: tile.dram_tensor @arg2 input {bind = "arg1"
// LOWER: tile.dram_tensor @arg3 output {bind = "arg1"
// LOWER: tile.binary
// CHECK: terms: check result #0 (8x40xf32): {{.*}} PASS
func.func @terms(%x: tensor<10x40xf32>) -> tensor<8x40xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8x40xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<8x40xf32>) -> tensor<8x40xf32>
  %a = tensor.extract_slice %x[0, 0] [8, 40] [1, 1] : tensor<10x40xf32> to tensor<8x40xf32>
  %b = tensor.extract_slice %x[2, 0] [8, 40] [1, 1] : tensor<10x40xf32> to tensor<8x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x40xf32>, tensor<8x40xf32>) outs(%f : tensor<8x40xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x40xf32>
  return %r : tensor<8x40xf32>
}
