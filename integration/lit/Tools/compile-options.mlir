// RUN: strata-compile %s --emit=obj -o %t.o -mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: strata-compile %s --emit=obj -o %t.o --log-level=debug 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: strata-compile %s --emit=obj -o %t.o --log-level=off 2>&1 | count 0
// RUN: rm -f %t.so
// RUN: not strata-compile %s --log-level=bogus -o %t.so 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: test ! -e %t.so

// Both pass pipelines (the core stages, then the target's) are timed.
// TIMING: Execution time report
// TIMING: StrataCheckInput
// TIMING: OneShotBufferizePass
// TIMING: Total
// TIMING: Execution time report
// TIMING: ConvertFuncToLLVMPass
// TIMING: Total

// DEBUG: [debug] running core stages
// DEBUG: [debug] running the 'cpu' target

// LEVEL: strata-compile: error: --log-level: unknown level 'bogus'; expected trace, debug, info, warn, error or off

func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
