// Causal attention as PyTorch exports it is one group, like plain
// attention (fuse-attention.mlir): the mask became index arithmetic in the
// scores' op (strata-fuse-elementwise), the safe-softmax tail's "row has a
// finite score" flag is a byte per row (strata-widen-booleans), so the
// P*V contraction reads the end of a row-wise group. Per head (the grid
// splits the 4 heads) and block of query rows, Q*K^T, the mask, the
// softmax, the tail and P*V run with the block in cache; no 4x197x197
// scores or 197x197 mask tensor exists.
// RUN: strata-compile %S/../../../examples/models/attention_causal.mlir --target=host-x86-avx512 --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @attention_causal
// CHECK-NOT: 4x197x197
// CHECK-NOT: memref<197x197x
// CHECK: memref.alloc() {{.*}} : memref<4x64x197xf32>
// CHECK: scf.forall (%{{.*}}) = (0) to (4) step (2)
// CHECK: memref.alloc() {{.*}} : memref<1x197x197xf32>
// CHECK: memref.alloc() {{.*}} : memref<1x197xi8>
// Q*K^T for the block.
// CHECK: vector.contract
// The mask, from the query and key indices.
// CHECK: arith.cmpi sle, %{{.*}} : vector<128xi64>
// CHECK: arith.select
// The softmax and the tail.
// CHECK: arith.cmpf oeq
// CHECK: vector.multi_reduction <or>
// CHECK: math.exp
// CHECK: arith.select
// P*V for the block.
// CHECK: vector.contract
// CHECK: {mapping = [#strata.grid<"core">]}
// CHECK-NOT: 4x197x197
