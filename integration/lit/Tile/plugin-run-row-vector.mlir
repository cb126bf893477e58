// A row program may end with a reduction: its vector result is column 0
// of one tile per tile-row, declared `column` so that the runtime reads the
// host's values from there (it was refused: "the tile target's row
// programs end with a 2-D result"). A row sum over 100 columns (padded
// with 0), a row max of a batch of two 64x96 matrices (whole tiles), and
// the sum of exp(x - max) of 509 columns (padded with -inf), and a matmul
// followed by a row sum (two programs). Both chips.
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// LOWER-LABEL: tile.program @row_sum
// LOWER: tile.dram_tensor @arg1 output {column, host_shape = array<i64: 70>} : !tile.dram<96x32xf32
// CHECK: row_sum: check result #0 (70xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK: batch_max: check result #0 (2x64xf32): relative error 0.00e+00 (tolerance 1.0e-04) PASS
// CHECK: sum_exp: check result #0 (7xf32): relative error {{.*}} (tolerance 1.0e-04) PASS
// CHECK: mm_rowsum: check result #0 (64xf32): relative error {{.*}} (tolerance {{[0-9.]+e-03.*}}) PASS
#id2 = affine_map<(i, j) -> (i, j)>
#row2 = affine_map<(i, j) -> (i)>
func.func @row_sum(%x: tensor<70x100xf32>) -> tensor<70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<70xf32>) -> tensor<70xf32>
  %r = linalg.reduce ins(%x : tensor<70x100xf32>) outs(%f : tensor<70xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<70xf32>
}

func.func @batch_max(%x: tensor<2x64x96xf32>) -> tensor<2x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x64xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %r = linalg.reduce ins(%x : tensor<2x64x96xf32>) outs(%f : tensor<2x64xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<2x64xf32>
}

func.func @sum_exp(%x: tensor<7x509xf32>) -> tensor<7xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %m = linalg.reduce ins(%x : tensor<7x509xf32>) outs(%fm : tensor<7xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %r = arith.maximumf %in, %acc : f32
      linalg.yield %r : f32
    }
  %e2 = tensor.empty() : tensor<7xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7xf32>) -> tensor<7xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row2, #row2], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<7x509xf32>, tensor<7xf32>) outs(%fs : tensor<7xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    %r = arith.addf %ex, %acc : f32
    linalg.yield %r : f32
  } -> tensor<7xf32>
  return %s : tensor<7xf32>
}

func.func @mm_rowsum(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%init : tensor<64x64xf32>) -> tensor<64x64xf32>
  %ve = tensor.empty() : tensor<64xf32>
  %vi = linalg.fill ins(%zero : f32) outs(%ve : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%c : tensor<64x64xf32>) outs(%vi : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %s : tensor<64xf32>
}
