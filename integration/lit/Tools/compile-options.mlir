// RUN: strata-compile %s --emit=obj -o %t.o -mlir-timing > %t.stdout 2> %t.stderr
// RUN: FileCheck %s --check-prefix=TIMING < %t.stderr
// RUN: count 0 < %t.stdout
// RUN: strata-compile %s --emit=obj -o %t.o --log-level=info 2>&1 | FileCheck %s --check-prefix=INFO -DOUT=%t.o
// RUN: strata-compile %s --emit=obj -o %t.o --log-level=debug 2>&1 | FileCheck %s --check-prefix=INFO -DOUT=%t.o
// RUN: strata-compile %s --emit=obj -o %t.o 2>&1 | count 0
// RUN: strata-compile %s --emit=obj -o %t.o --log-level=off 2>&1 | count 0
// RUN: rm -f %t.so
// RUN: not strata-compile %s --log-level=bogus -o %t.so 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: test ! -e %t.so
// LLVM's own --threads is refused (Strata would ignore it), and hidden.
// RUN: not strata-compile %s --threads=1 -o %t.so 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: test ! -e %t.so
// RUN: strata-compile --help | FileCheck %s --check-prefix=HELP

// Both pass pipelines (the core stages, then the target's) are timed, on
// stderr.
// TIMING: Execution time report
// TIMING: StrataCheckInput
// TIMING: OneShotBufferizePass
// TIMING: Total
// TIMING: Execution time report
// TIMING: ConvertFuncToLLVMPass
// TIMING: Total

// The log follows the stages; by default the tool is silent.
// INFO: target host (plugin cpu,
// INFO: running core stages
// INFO: running the 'cpu' target
// INFO: wrote [[OUT]] (obj)

// LEVEL: strata-compile: error: --log-level: unknown level 'bogus'; expected trace, debug, info, warn, error or off

// THREADS: strata-compile: error: --threads: not a Strata option; the host target uses the cores the process may run on (e.g. taskset -c 0 for one core)
// HELP: --target=
// HELP-NOT: --threads

func.func @add(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %c = linalg.add ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %c : tensor<8xf32>
}
