// Causal attention as PyTorch exports it (Q and Kᵀ each scaled, the mask
// from aranges, linalg.softmax, the safe-softmax tail) maps for the H200 to
// one attention kernel (HierarchyAttention.cpp): the mask's index
// arithmetic is cloned into the lanes' scale phase with the block's query
// and key indices, and the key loop stops at the tile of the block's last
// query (key - query <= 0: min(4 tiles, ceildiv(q0 + 16 + 0, 64))). Rows
// with no key give 0 (the row flag: the running maximum stayed -inf). Q
// and Kᵀ are scaled by kernels of their own, read by the attention kernel
// as its inputs; no 197 x 197 buffer is left.
// REQUIRES: nvidia-plugin
// RUN: strata-compile %S/../../../examples/models/attention_causal.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @attention_causal
// CHECK-NOT: memref<197x197xf32>
// CHECK: scf.forall (%[[BH:.*]], %[[QT:.*]]) in (4, 13) {
// CHECK: %[[Q0:.*]] = arith.muli %[[QT]], %c16 : index
// CHECK: %[[END:.*]] = arith.addi %[[Q0]], %c16 : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[END]], %c0 : index
// CHECK: %[[UP:.*]] = arith.addi %[[POS]], %c63 : index
// CHECK: %[[NEED:.*]] = arith.divui %[[UP]], %c64 : index
// CHECK: %[[TILES:.*]] = arith.minui %[[NEED]], %c4 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[TILES]] step %c1 {
// CHECK: arith.cmpi sle
// CHECK: arith.cmpi sle
// The output: O / l, 0 where the maximum stayed -inf.
// CHECK: %[[O:.*]] = arith.divf
// CHECK: %[[M:.*]] = memref.load
// CHECK: %[[SOME:.*]] = arith.cmpf une, %[[M]]
// CHECK: arith.select %[[SOME]], %[[O]]
// CHECK: kind = "attention"
// CHECK-NOT: memref<197x197xf32>
// CHECK-NOT: kind = "attention"
