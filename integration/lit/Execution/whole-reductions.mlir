// Sums over several loops (a whole tensor; the last two dims of a 3-D
// tensor) keep one register tile of partial results that every reduction
// loop steps into: the rows no longer form one vector as large as the
// tensor (a 4096 x 4096 sum ran the compiler out of memory).
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=whole --check | FileCheck %s --check-prefix=WHOLE %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=inner --check | FileCheck %s --check-prefix=INNER %}
// The reference sums in f64: in f32 and in sequence, one rounding per
// element, the sum of 16M values was 2e-4 off, further than the blocked
// sums it checked.
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=big --check | FileCheck %s --check-prefix=BIG %}
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=IR

// WHOLE: whole: check result #0 (f32): relative error {{.*}} PASS
// IR-LABEL: func.func @whole
// IR-NOT: vector<300x
// IR: scf.for %{{.*}} = %c0 to %c300 step %c1
// IR: scf.for %{{.*}} = %c0 to %c1000 step %c128
// IR: vector.transfer_read {{.*}} vector<1x128xf32>
func.func @whole(%x: tensor<300x1000xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<300x1000xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// INNER: inner: check result #0 (6xf32): relative error {{.*}} PASS
func.func @inner(%x: tensor<6x77x129xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.reduce ins(%x : tensor<6x77x129xf32>) outs(%f : tensor<6xf32>) dimensions = [1, 2]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<6xf32>
}

// BIG: big: check result #0 (f32): relative error {{.*}} PASS
func.func @big(%x: tensor<4096x4096xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<4096x4096xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}
