// The input check is the pipeline's first step.
// RUN: strata-opt %s --strata-prepare --verify-diagnostics

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'gpu.thread_id' is not accepted as input}}
  %t = gpu.thread_id x
  return %x : tensor<4xf32>
}
