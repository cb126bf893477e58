// A contraction reading the end of a row-wise group (an RMSNorm, then a
// 256x256x256 matmul) forms a group per block of rows. On one core the
// block holds all 256 rows and there is no grid: tiling made no loop, the
// matmul kept neither its cache tiles nor its register tiles and ran as
// scalar loops (2 GFLOP/s; a LLaMA block took 88 ms instead of 2.5). Such a
// group of one block is no group: the norm is a row group of its own and
// the matmul keeps its schedule. taskset gives the host one core.
// RUN: taskset -c 0 strata-compile %s --target=host --emit=mlir -o - | FileCheck %s
// RUN: taskset -c 0 strata-run %s --target=host --check | FileCheck %s --check-prefix=RESULT
// CHECK-LABEL: func.func @rms_matmul
// CHECK-NOT: scf.forall
// CHECK: vector.contract
// RESULT: rms_matmul: check result #0 {{.*}} PASS

#rows = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @rms_matmul(%x: tensor<256x256xf32>, %g: tensor<256xf32>, %w: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %s0 = tensor.empty() : tensor<256xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#rows, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<256x256xf32>) outs(%s1 : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %h0 = tensor.empty() : tensor<256x256xf32>
  %h = linalg.generic {indexing_maps = [#rows, #row, #col, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %ss, %g : tensor<256x256xf32>, tensor<256xf32>, tensor<256xf32>) outs(%h0 : tensor<256x256xf32>) {
  ^bb0(%a: f32, %s: f32, %gv: f32, %o: f32):
    %mean = arith.divf %s, %n : f32
    %e = arith.addf %mean, %eps : f32
    %inv = math.rsqrt %e : f32
    %y = arith.mulf %a, %inv : f32
    %r = arith.mulf %y, %gv : f32
    linalg.yield %r : f32
  } -> tensor<256x256xf32>
  %m0 = tensor.empty() : tensor<256x256xf32>
  %m1 = linalg.fill ins(%zero : f32) outs(%m0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %m = linalg.matmul ins(%h, %w : tensor<256x256xf32>, tensor<256x256xf32>) outs(%m1 : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %m : tensor<256x256xf32>
}
