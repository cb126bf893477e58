// Reductions down the rows (the vector loop is an output loop): a cache
// tile of 8 rows (pipes x latency on this chip) comes outermost, and each
// register tile of accumulators sums the tile's rows, so the input streams
// in 8 contiguous runs instead of a few lines per row a row apart. Odd
// extents (a partial last row tile, a ragged last vector) and a reduction
// over two outer dims, on two cores, checked against the reference.
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=columns --check | FileCheck %s --check-prefix=COL %}
// RUN: %if host-avx512 %{ strata-run %s --target=host-x86-avx512 --entry=outer --check | FileCheck %s --check-prefix=OUTER %}
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s --check-prefix=IR

// IR-LABEL: func.func @columns
// IR: scf.for %{{.*}} = %c0 to %c1001 step %c8
// IR: scf.for %{{.*}} = %c0 to %{{.*}} step %c128
// IR: vector.transfer_read
// IR: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}}) -> (vector<128xf32>)
// COL: columns: check result #0 (997xf32): relative error {{.*}} PASS
func.func @columns(%x: tensor<1001x997xf32>) -> tensor<997xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<997xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<997xf32>) -> tensor<997xf32>
  %s = linalg.reduce ins(%x : tensor<1001x997xf32>) outs(%f : tensor<997xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<997xf32>
}

// OUTER: outer: check result #0 (50xf32): relative error {{.*}} PASS
func.func @outer(%x: tensor<30x41x50xf32>) -> tensor<50xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<50xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<50xf32>) -> tensor<50xf32>
  %s = linalg.reduce ins(%x : tensor<30x41x50xf32>) outs(%f : tensor<50xf32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  return %s : tensor<50xf32>
}
