// What the reference cannot compute in f32 is an error, never a silently
// narrow reference.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(strata-widen-floats))' --verify-diagnostics

func.func @bits(%x: bf16) -> i16 {
  // expected-error @+1 {{cannot compute 'arith.bitcast' in f32 for the reference: not an op on tensors or scalars that is polymorphic in its float type}}
  %b = arith.bitcast %x : bf16 to i16
  return %b : i16
}

// -----

func.func private @helper(%x: bf16) -> bf16

func.func @call(%x: bf16) -> bf16 {
  // expected-error @+1 {{cannot compute 'func.call' in f32 for the reference: calls keep their callee's types; inline first}}
  %y = func.call @helper(%x) : (bf16) -> bf16
  return %y : bf16
}

// -----

func.func @buffer(%m: memref<4xbf16>) -> tensor<4xbf16> {
  // expected-error @+1 {{cannot compute 'bufferization.to_tensor' in f32 for the reference}}
  %t = bufferization.to_tensor %m : memref<4xbf16> to tensor<4xbf16>
  return %t : tensor<4xbf16>
}
