// Row reductions over rows that are not whole tiles, where no padding of
// the inputs leaves them unchanged: a layer norm's variance ((0 - mean)^2
// is not 0), a softmax of gelu(-x) (no pad makes gelu -inf), a max of
// log(1 + |x|) (5 columns). Each such reduction reduces
// select(m[j], x, identity) with m a constant vector of true (row_mask)
// whose padding reads false; the select is a where_dst in the row program.
// Before, each stopped with "the tile target reduces rows of whole tiles:
// ... no padding (0 or -inf) of the inputs leaves every reduction
// unchanged" (differential seed 403 cases 35, 38, 40).
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s

// LOWER:       tile.constants = {
// LOWER-SAME:    row_mask = dense<true> : tensor<100xi1>
// LOWER-LABEL: tile.program @layernorm_ragged.0
// LOWER:         tile.dram_tensor @arg{{[0-9]+}} input {bind = "row_mask{{.*}}", host_shape = array<i64: 100>, replicate_rows} : !tile.dram<32x128xbf16
// LOWER:         tile.where_dst
// LOWER:         tile.reduce sum row

// CHECK: layernorm_ragged: check result #0 (48x100xf32): relative error {{.*}} PASS
func.func @layernorm_ragged(%x: tensor<48x100xf32>, %g: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<48x100xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 100.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e1 = tensor.empty() : tensor<48xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<48xf32>) -> tensor<48xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<48x100xf32>) outs(%f1 : tensor<48xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<48xf32>
  %e2 = tensor.empty() : tensor<48x100xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<48x100xf32>, tensor<48xf32>) outs(%e2 : tensor<48x100xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<48x100xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<48xf32>) -> tensor<48xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<48x100xf32>) outs(%f2 : tensor<48xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<48xf32>
  %e3 = tensor.empty() : tensor<48x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %var, %g, %b : tensor<48x100xf32>, tensor<48xf32>, tensor<100xf32>, tensor<100xf32>) outs(%e3 : tensor<48x100xf32>) {
  ^bb0(%in: f32, %v: f32, %gg: f32, %bb: f32, %out: f32):
    %vm = arith.divf %v, %n : f32
    %ve = arith.addf %vm, %eps : f32
    %rs = math.rsqrt %ve : f32
    %y = arith.mulf %in, %rs : f32
    %yg = arith.mulf %y, %gg : f32
    %yb = arith.addf %yg, %bb : f32
    linalg.yield %yb : f32
  } -> tensor<48x100xf32>
  return %r : tensor<48x100xf32>
}

// CHECK: gelu_softmax: check result #0 (4x129xbf16): relative error {{.*}} PASS
func.func @gelu_softmax(%x: tensor<4x129xbf16>) -> tensor<4x129xbf16> {
  %h = arith.constant 0.5 : bf16
  %one = arith.constant 1.0 : bf16
  %k = arith.constant 0.70710678 : bf16
  %e1 = tensor.empty() : tensor<4x129xbf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x129xbf16>) outs(%e1 : tensor<4x129xbf16>) {
  ^bb0(%in: bf16, %out: bf16):
    %n = arith.negf %in : bf16
    %s = arith.mulf %n, %k : bf16
    %e = math.erf %s : bf16
    %a = arith.addf %e, %one : bf16
    %hx = arith.mulf %n, %h : bf16
    %r = arith.mulf %hx, %a : bf16
    linalg.yield %r : bf16
  } -> tensor<4x129xbf16>
  %e2 = tensor.empty() : tensor<4x129xbf16>
  %s = linalg.softmax dimension(1) ins(%g : tensor<4x129xbf16>) outs(%e2 : tensor<4x129xbf16>) -> tensor<4x129xbf16>
  return %s : tensor<4x129xbf16>
}

// CHECK: log_max: check result #0 (8xf32): relative error {{.*}} PASS
func.func @log_max(%x: tensor<8x5xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x5xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = math.absf %in : f32
    %p = arith.addf %a, %one : f32
    %l = math.log %p : f32
    %m = arith.maximumf %l, %acc : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
