// Row programs over a batch of matrices whose rows are not whole tiles
// (attention's scores for 197 tokens: 4 x 197 x 197) were refused ("the
// tile target's row programs stack a batch of matrices of whole
// tile-rows: 197 rows are not a multiple of 32"). A row program's rows
// are independent: such a batch is declared flat, its matrices' rows one
// after another ([elements / cols, cols]), and a row reduction's result
// is a flat column, one value per row of the stack.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER

// CHECK: scores_softmax: check result #0 (4x197x197xf32): relative error {{.*}} PASS
// CHECK: row_sums: check result #0 (7x17x17xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// LOWER: tile.dram_tensor @arg0 input {flatten, host_shape = array<i64: 4, 197, 197>{{.*}}} : !tile.dram<800x224xf32
// LOWER: tile.dram_tensor @arg1 output {column, flatten, host_shape = array<i64: 7, 17, 17>} : !tile.dram<2048x32xf32
func.func @scores_softmax(%s: tensor<4x197x197xf32>) -> tensor<4x197x197xf32> {
  %e = tensor.empty() : tensor<4x197x197xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x197x197xf32>) outs(%e : tensor<4x197x197xf32>) -> tensor<4x197x197xf32>
  return %p : tensor<4x197x197xf32>
}
func.func @row_sums(%x: tensor<7x17x17x20xf32>) -> tensor<7x17x17xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x17x17xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x17x17xf32>) -> tensor<7x17x17xf32>
  %r = linalg.reduce ins(%x : tensor<7x17x17x20xf32>) outs(%f : tensor<7x17x17xf32>) dimensions = [3]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<7x17x17xf32>
}
