// A row program needs a circular buffer per input, per step's result and
// per output: five softmaxes in a row over rows of 17 (their reductions
// masked) need more than the 32 a core has. This is a clean error at the
// function; before, the program was written and failed the verifier after
// S5 ("'tile.circular_buffer' op is circular buffer 33 of core [0, 0]";
// the compile fuzzer, seed 2199254709).
// RUN: not strata-compile %s --target=tile-blackhole-p150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s
// RUN: not strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: the tile target's row program needs {{[0-9]+}} circular buffers (one per input, per step's result and per output); the chip has 32 per core
// CHECK-NOT: does not verify
func.func @fuzz(%arg0: tensor<17x17xf32>) -> tensor<17x17xf32> {
  %v1 = tensor.empty() : tensor<17x17xf32>
  %v0 = linalg.softmax dimension(1) ins(%arg0 : tensor<17x17xf32>) outs(%v1 : tensor<17x17xf32>) -> tensor<17x17xf32>
  %v3 = tensor.empty() : tensor<17x17xf32>
  %v2 = linalg.softmax dimension(1) ins(%v0 : tensor<17x17xf32>) outs(%v3 : tensor<17x17xf32>) -> tensor<17x17xf32>
  %v5 = tensor.empty() : tensor<17x17xf32>
  %v4 = linalg.softmax dimension(1) ins(%v2 : tensor<17x17xf32>) outs(%v5 : tensor<17x17xf32>) -> tensor<17x17xf32>
  %v7 = tensor.empty() : tensor<17x17xf32>
  %v6 = linalg.softmax dimension(1) ins(%v4 : tensor<17x17xf32>) outs(%v7 : tensor<17x17xf32>) -> tensor<17x17xf32>
  %v9 = tensor.empty() : tensor<17x17xf32>
  %v8 = linalg.softmax dimension(1) ins(%v6 : tensor<17x17xf32>) outs(%v9 : tensor<17x17xf32>) -> tensor<17x17xf32>
  return %v8 : tensor<17x17xf32>
}
