// A projection p = a * w0, its sum h with a residual, an RMSNorm of h read
// by two matmuls (w1 and w2 of a gated MLP) and h read again at the end:
// each matmul after the normalization is the root of a row group, but p is
// computed once, in its own group. Fusing it into both roots computed it
// three times (a LLaMA-style block spent 0.8 of its 5.8 ms on the copies).
// Loops of 6x64 register tiles: two for p (its cache tiles split k) and one
// for each of the others (six when p was fused into both roots).
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | grep -c "iter_args.*-> (vector<6x64xf32>)" | FileCheck %s --check-prefix=COUNT
// RUN: strata-run %s --check | FileCheck %s
// COUNT: {{^}}4{{$}}
// CHECK: block: check result #0 (256x256xf32): relative error {{.*}} PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @block(%a: tensor<256x256xf32>, %r: tensor<256x256xf32>, %w0: tensor<256x256xf32>, %w1: tensor<256x256xf32>, %w2: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.906250e-03 : f32
  %eps = arith.constant 1.0e-06 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %p = linalg.matmul ins(%a, %w0 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %r : tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  %er = tensor.empty() : tensor<256xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%h : tensor<256x256xf32>) outs(%fr : tensor<256xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%h, %ss : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %m = arith.mulf %s, %inv : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %y = arith.mulf %x, %rs : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>
  %y1 = linalg.matmul ins(%n, %w1 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %y2 = linalg.matmul ins(%n, %w2 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%h, %y1, %y2 : tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%x: f32, %u: f32, %v: f32, %o: f32):
    %g = arith.mulf %u, %v : f32
    %s = arith.addf %x, %g : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %out : tensor<256x256xf32>
}
