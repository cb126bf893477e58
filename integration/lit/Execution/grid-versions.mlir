// Grids whose last part is shorter (two cores: 513 = 258 + 255 rows, 127 =
// 64 + 63) run one static version of the body per kind of part; both
// versions write their rows of the one output (Transforms/grid-versions).
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=matmul --check | FileCheck %s --check-prefix=MM %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=elementwise --check | FileCheck %s --check-prefix=EW %}

// MM: matmul: check result #0 (513x257xf32): relative error {{.*}} PASS
func.func @matmul(%a: tensor<513x129xf32>, %b: tensor<129x257xf32>) -> tensor<513x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<513x257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<513x257xf32>) -> tensor<513x257xf32>
  %c = linalg.matmul ins(%a, %b : tensor<513x129xf32>, tensor<129x257xf32>) outs(%f : tensor<513x257xf32>) -> tensor<513x257xf32>
  return %c : tensor<513x257xf32>
}

// EW: elementwise: check result #0 (127x33xf32): relative error {{.*}} PASS
func.func @elementwise(%a: tensor<127x33xf32>, %b: tensor<127x33xf32>) -> tensor<127x33xf32> {
  %e = tensor.empty() : tensor<127x33xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<127x33xf32>, tensor<127x33xf32>) outs(%e : tensor<127x33xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.mulf %s, %x : f32
    linalg.yield %m : f32
  } -> tensor<127x33xf32>
  return %r : tensor<127x33xf32>
}
