// A program's own parallel loop (scf.forall over slices, mapped to the
// cores or not) runs on the tile chips iteration by iteration: each
// iteration's ops are programs of their own on their slices (every
// program spreads over the whole grid). Before, "not lowered:
// scf.forall". The fill each iteration copies into its slice of the
// output and out again for its product is that product's own fill, and
// the copy of the fill that the product's result replaces goes.
// RUN: strata-run %s --target=tile-wormhole-n150 --check | FileCheck %s
// RUN: strata-run %s --target=tile-blackhole-p150 --check | FileCheck %s
// RUN: strata-compile %s --target=tile-wormhole-n150 --emit=lowered -o - | FileCheck %s --check-prefix=LOWER
// RUN: not strata-compile %inputs/tile-forall-too-many.mlir --target=tile-wormhole-n150 --emit=lowered -o /dev/null 2>&1 | FileCheck %s --check-prefix=MANY

// CHECK: blocks: check result #0 (64x64xf32): relative error {{.*}} PASS
// CHECK: rows: check result #0 (4x96xf32): relative error {{.*}} PASS
// CHECK-NOT: FAIL
// Per block: copies of its A rows and B columns, the fill and product,
// the copy out.
// LOWER-COUNT-16: tile.program @blocks.{{[0-9]+}}
// LOWER-NOT: tile.program @blocks.
// LOWER: tile.program @rows.0
// MANY: tile-forall-too-many.mlir:5:{{.*}}error: the tile target runs each iteration of an scf.forall as programs of its own {{.*}} this loop has 96 iterations, at most 64

// A 2-D loop over 2 x 2 blocks of C = A B, one block per iteration.
#block = affine_map<(i) -> (i * 32)>
func.func @blocks(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %r = scf.forall (%i, %j) in (2, 2) shared_outs(%out = %e) -> (tensor<64x64xf32>) {
    %r0 = affine.apply #block(%i)
    %c0 = affine.apply #block(%j)
    %ab = tensor.extract_slice %a[%r0, 0] [32, 32] [1, 1] : tensor<64x32xf32> to tensor<32x32xf32>
    %bb = tensor.extract_slice %b[0, %c0] [32, 32] [1, 1] : tensor<32x64xf32> to tensor<32x32xf32>
    %ob = tensor.extract_slice %out[%r0, %c0] [32, 32] [1, 1] : tensor<64x64xf32> to tensor<32x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%ob : tensor<32x32xf32>) -> tensor<32x32xf32>
    %mm = linalg.matmul ins(%ab, %bb : tensor<32x32xf32>, tensor<32x32xf32>) outs(%f : tensor<32x32xf32>) -> tensor<32x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %mm into %out[%r0, %c0] [32, 32] [1, 1] : tensor<32x32xf32> into tensor<64x64xf32>
    }
  }
  return %r : tensor<64x64xf32>
}

// Rows of an elementwise op, a loop with a step.
func.func @rows(%x: tensor<4x96xf32>) -> tensor<4x96xf32> {
  %e = tensor.empty() : tensor<4x96xf32>
  %r = scf.forall (%i) = (0) to (4) step (2) shared_outs(%out = %e) -> (tensor<4x96xf32>) {
    %xr = tensor.extract_slice %x[%i, 0] [2, 96] [1, 1] : tensor<4x96xf32> to tensor<2x96xf32>
    %orow = tensor.extract_slice %out[%i, 0] [2, 96] [1, 1] : tensor<4x96xf32> to tensor<2x96xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%xr : tensor<2x96xf32>) outs(%orow : tensor<2x96xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.tanh %v : f32
      linalg.yield %t : f32
    } -> tensor<2x96xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %out[%i, 0] [2, 96] [1, 1] : tensor<2x96xf32> into tensor<4x96xf32>
    }
  }
  return %r : tensor<4x96xf32>
}
