// A matmul after a layer norm is the root of a row group (per block of
// rows: the norm, then the product); its bias and ReLU run on each block
// of the product in the same group, not as a pass of their own over the
// whole result (a second scf.forall that read it back from memory). With
// 257 rows the last block is partial and peeled: fusing the epilogue
// replaces the group's loops, which the peeling must then use (it crashed
// on the replaced ones).
// RUN: strata-compile %s --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s
// RUN: strata-run %s --check | FileCheck %s --check-prefix=EXEC
// CHECK-LABEL: func.func @norm_linear_relu(
// CHECK:     scf.forall
// CHECK:     math.rsqrt
// CHECK:     vector.contract
// CHECK:     arith.maximumf
// CHECK:     } {mapping = [#strata.grid<"core">]}
// CHECK-NOT: scf.forall
// CHECK:     return
// EXEC: norm_linear_relu: check result #0 (256x512xf32): relative error {{.*}} PASS
// EXEC: partial_block: check result #0 (257x512xf32): relative error {{.*}} PASS
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @norm_linear_relu(%x: tensor<256x256xf32>, %w: tensor<256x512xf32>, %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.906250e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %er = tensor.empty() : tensor<256xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<256x256xf32>) outs(%fr : tensor<256xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %ss : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.mulf %s, %inv : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %y = arith.mulf %v, %rs : f32
    linalg.yield %y : f32
  } -> tensor<256x256xf32>
  %eo = tensor.empty() : tensor<256x512xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<256x512xf32>) -> tensor<256x512xf32>
  %p = linalg.matmul ins(%n, %w : tensor<256x256xf32>, tensor<256x512xf32>) outs(%fo : tensor<256x512xf32>) -> tensor<256x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %b : tensor<256x512xf32>, tensor<512xf32>) outs(%eo : tensor<256x512xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x512xf32>
  return %r : tensor<256x512xf32>
}

func.func @partial_block(%x: tensor<257x256xf32>, %w: tensor<256x512xf32>, %b: tensor<512xf32>) -> tensor<257x512xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 3.906250e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<257x256xf32>
  %er = tensor.empty() : tensor<257xf32>
  %fr = linalg.fill ins(%zero : f32) outs(%er : tensor<257xf32>) -> tensor<257xf32>
  %ss = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<257x256xf32>) outs(%fr : tensor<257xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<257xf32>
  %n = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %ss : tensor<257x256xf32>, tensor<257xf32>) outs(%e : tensor<257x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %m = arith.mulf %s, %inv : f32
    %me = arith.addf %m, %eps : f32
    %rs = math.rsqrt %me : f32
    %y = arith.mulf %v, %rs : f32
    linalg.yield %y : f32
  } -> tensor<257x256xf32>
  %eo = tensor.empty() : tensor<257x512xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<257x512xf32>) -> tensor<257x512xf32>
  %p = linalg.matmul ins(%n, %w : tensor<257x256xf32>, tensor<256x512xf32>) outs(%fo : tensor<257x512xf32>) -> tensor<257x512xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %b : tensor<257x512xf32>, tensor<512xf32>) outs(%eo : tensor<257x512xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<257x512xf32>
  return %r : tensor<257x512xf32>
}
