// Attention as ops (Q*K^T, scale, softmax, P*V) is one group: the P*V
// contraction reads the end of a row-wise group, so per block of query rows
// (128 of 256: two rows of scores fill half of the 1 MiB L2 of this chip)
// the scores, the softmax and both contractions are computed with the block
// in cache. No 256x256 score matrix exists; K^T, read whole by every block,
// is made once before the group. The grid splits the heads.
// RUN: strata-compile %S/../../../examples/models/attention.mlir --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @attention
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x6x64xf32>
// CHECK-NOT: 8x256x256
// CHECK: memref.alloc() {{.*}} : memref<8x64x256xf32>
// CHECK: scf.forall (%{{.*}}) = (0) to (8) step (4)
// CHECK: memref.alloc() {{.*}} : memref<1x128x256xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c256 step %c128
// Q*K^T for the block: its 64 keys are one tile, so the register tiles
// start from zero, with no pass that zeroes the block's scores first.
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<1x6x64xf32>)
// CHECK: vector.contract {{.*}} vector<1x6x1xf32>, vector<1x1x64xf32> into vector<1x6x64xf32>
// The softmax of its rows, one row at a time: each row's maximum and sum
// keep a register tile of partial results across the keys and fold it
// once (not one ordered scalar add per key).
// CHECK: arith.maxnumf %{{.*}}, %{{.*}} : vector<1x1x128xf32>
// CHECK: scf.yield %{{.*}} : vector<1x1x128xf32>
// CHECK: vector.multi_reduction <maxnumf>, %{{.*}}, %{{.*}} [2] : vector<1x1x128xf32> to vector<1x1xf32>
// CHECK: math.exp
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<1x1x128xf32>
// CHECK: scf.yield %{{.*}} : vector<1x1x128xf32>
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<1x1x128xf32> to vector<1x1xf32>
// CHECK: arith.divf
// P*V for the block, over keys in L1 tiles of 128 (a 128x64 panel of V
// serves every register tile of the block), not one pass over all 256 keys
// per register tile.
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c128
// CHECK-NOT: iter_args(%{{.*}}) -> (vector<1x6x64xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c126 step %c6
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c1 iter_args(%{{.*}}) -> (vector<1x6x64xf32>)
// CHECK: {mapping = [#strata.grid<"core">]}
// CHECK-NOT: 8x256x256
