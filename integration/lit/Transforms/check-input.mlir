// RUN: strata-opt %s --split-input-file --strata-check-input --verify-diagnostics | FileCheck %s
// RUN: not strata-opt %s --split-input-file --strata-check-input 2>&1 | FileCheck %s --check-prefix=MSG

// Every accepted dialect passes through unchanged.
// CHECK-LABEL: func.func @accepted
// CHECK: tosa.add
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: scf.for
// CHECK: affine.for
// CHECK: bufferization.to_tensor
func.func @accepted(%a: tensor<4xf32>, %b: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %t = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%t : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %m[%i] : memref<4xf32>
    memref.store %v, %m[%i] : memref<4xf32>
  }
  affine.for %j = 0 to 4 {
    %w = affine.load %m[%j] : memref<4xf32>
    affine.store %w, %m[%j] : memref<4xf32>
  }
  %r = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

func.func @gpu_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'gpu.thread_id' is not accepted as input; expected ops of: affine, arith, bufferization, builtin, func, linalg, math, memref, scf, tensor, tosa, vector (and cf.assert)}}
  // MSG: check-input.mlir:[[# @LINE + 1]]:8: error: 'gpu.thread_id' is not accepted as input; expected ops of: affine, arith, bufferization, builtin, func, linalg, math, memref, scf, tensor, tosa, vector (and cf.assert)
  %c = gpu.thread_id x
  return %a : tensor<4xf32>
}

// -----

func.func @llvm_op() -> i32 {
  // expected-error @+2 {{'llvm.mlir.constant' is not accepted as input}}
  // MSG: check-input.mlir:[[# @LINE + 1]]:8: error: 'llvm.mlir.constant' is not accepted as input
  %c = llvm.mlir.constant(1 : i32) : i32
  return %c : i32
}

// -----

// Every rejected op is reported, not only the first.
func.func @two_ops(%x: f32) {
  // expected-error @+2 {{'complex.create' is not accepted as input}}
  // MSG: check-input.mlir:[[# @LINE + 1]]:8: error: 'complex.create' is not accepted as input
  %v = complex.create %x, %x : complex<f32>
  // expected-error @+2 {{'cf.br' is not accepted as input}}
  // MSG: check-input.mlir:[[# @LINE + 1]]:3: error: 'cf.br' is not accepted as input
  cf.br ^bb1
^bb1:
  return
}

// -----

// Ops nested in the regions of accepted ops are checked too.
func.func @nested(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    // expected-error @+2 {{'complex.create' is not accepted as input}}
    // MSG: check-input.mlir:[[# @LINE + 1]]:10: error: 'complex.create' is not accepted as input
    %c = complex.create %x, %x : complex<f32>
    // expected-error @+2 {{'complex.re' is not accepted as input}}
    // MSG: check-input.mlir:[[# @LINE + 1]]:10: error: 'complex.re' is not accepted as input
    %r = complex.re %c : complex<f32>
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %g : tensor<4xf32>
}
