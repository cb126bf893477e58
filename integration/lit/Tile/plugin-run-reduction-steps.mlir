// Reductions over other loops than a row's run as programs in sequence
// (strata-row-reductions): a sum of a vector (a row of one, expanded and
// collapsed: views of one DRAM tensor), a sum over the last two loops of
// three (two row programs: the second reduces the first's results, its
// output's zero fill moved into its program), a max down the columns (a
// transpose program, then a row program).
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// CHECK-LABEL: vector: ran on
// CHECK: 1 programs in order:
// CHECK: vector: check result #0 (f32): relative error {{.*}} PASS
func.func @vector(%x: tensor<300xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<300xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<f32>
}

// CHECK-LABEL: inner: ran on
// CHECK: 2 programs in order:
// CHECK: inner: check result #0 (6xf32): relative error {{.*}} PASS
func.func @inner(%x: tensor<6x77x129xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.reduce ins(%x : tensor<6x77x129xf32>) outs(%f : tensor<6xf32>) dimensions = [1, 2]
    (%a: f32, %b: f32) { %s = arith.addf %a, %b : f32
      linalg.yield %s : f32 }
  return %r : tensor<6xf32>
}

// CHECK-LABEL: columns: ran on
// CHECK: 2 programs in order:
// CHECK: columns: check result #0 (60xf32): relative error {{.*}} PASS
func.func @columns(%x: tensor<100x60xf32>) -> tensor<60xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<60xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<60xf32>) -> tensor<60xf32>
  %r = linalg.reduce ins(%x : tensor<100x60xf32>) outs(%f : tensor<60xf32>) dimensions = [0]
    (%a: f32, %b: f32) { %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32 }
  return %r : tensor<60xf32>
}
