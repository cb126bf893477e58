// Masks in the attention kernel (HierarchyAttention.cpp) and the key-tile
// skipping (AttentionMask.cpp) on variants of gpu_bench.py's causal program
// (2 x 100 queries and keys, bf16; the H200 takes blocks of 16 queries and
// 2 key tiles of 64): the bound of the key loop is min(2, ceildiv(q0 + 16 +
// c, 64)) where the mask hides every key with key - query > c.
// REQUIRES: nvidia-plugin
// RUN: python3 %S/../../bench/gpu_bench.py mlir attn_bf16_1x2x100x64_causal > %t.mlir
//
// A mask the analysis does not understand (key + query <= 120: not a bound
// on key - query) still maps to one attention kernel, its index arithmetic
// cloned into the scale phase, but every block runs over all the key
// tiles: the key loop's bound is the plain constant.
// RUN: sed -e 's/arith.subi %%kj, %%qi/arith.addi %%kj, %%qi/' -e 's/%%z64 = arith.constant 0 : i64/%%z64 = arith.constant 120 : i64/' %t.mlir > %t.sum.mlir
// RUN: strata-compile %t.sum.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s
//
// key - query <= 120: every query sees every key, nothing to skip.
// RUN: sed -e 's/%%z64 = arith.constant 0 : i64/%%z64 = arith.constant 120 : i64/' %t.mlir > %t.all.mlir
// RUN: strata-compile %t.all.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=ALL
//
// Forms of the same bound: key - query <= 7 (c = 7); key <=u query, an
// unsigned compare of indices (c = 0); key - query < 4 (c = 3); the
// negation, select(key - query > 2, -inf, 0) (c = 2).
// RUN: sed -e 's/%%z64 = arith.constant 0 : i64/%%z64 = arith.constant 7 : i64/' %t.mlir > %t.7.mlir
// RUN: strata-compile %t.7.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=BOUND -DEND=23
// RUN: sed -e 's/%%keep = arith.cmpi sle, %%dif, %%z64 : i64/%%keep = arith.cmpi uge, %%qi, %%kj : i64/' %t.mlir > %t.u.mlir
// RUN: strata-compile %t.u.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=BOUND -DEND=16
// RUN: sed -e 's/%%keep = arith.cmpi sle, %%dif, %%z64 : i64/%%keep = arith.cmpi slt, %%dif, %%z64 : i64/' -e 's/%%z64 = arith.constant 0 : i64/%%z64 = arith.constant 4 : i64/' %t.mlir > %t.lt.mlir
// RUN: strata-compile %t.lt.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=BOUND -DEND=19
// RUN: sed -e 's/%%keep = arith.cmpi sle, %%dif, %%z64 : i64/%%keep = arith.cmpi sgt, %%dif, %%z64 : i64/' -e 's/%%mk = arith.select %%keep, %%zero, %%ninf/%%mk = arith.select %%keep, %%ninf, %%zero/' -e 's/%%z64 = arith.constant 0 : i64/%%z64 = arith.constant 2 : i64/' %t.mlir > %t.not.mlir
// RUN: strata-compile %t.not.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s --check-prefix=BOUND -DEND=18

// CHECK-LABEL: func.func @attention
// CHECK-NOT: memref<2x100x100xbf16>
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 7) {
// CHECK-NOT: arith.minui
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: arith.cmpi sle, %{{.*}}, %c120_i64 : i64
// CHECK: kind = "attention"
// CHECK-NOT: memref<2x100x100xbf16>

// ALL-LABEL: func.func @attention
// ALL-NOT: arith.minui
// ALL: scf.for %{{.*}} = %c0 to %c2 step %c1 {
// ALL: kind = "attention"

// BOUND-LABEL: func.func @attention
// BOUND: scf.forall (%{{.*}}, %[[QT:.*]]) in (2, 7) {
// BOUND: %[[Q0:.*]] = arith.muli %[[QT]], %c16 : index
// BOUND: %[[SUM:.*]] = arith.addi %[[Q0]], %c[[END]] : index
// BOUND: %[[POS:.*]] = arith.maxsi %[[SUM]], %c0 : index
// BOUND: %[[UP:.*]] = arith.addi %[[POS]], %c63 : index
// BOUND: %[[NEED:.*]] = arith.divui %[[UP]], %c64 : index
// BOUND: %[[TILES:.*]] = arith.minui %[[NEED]], %c2 : index
// BOUND: scf.for %{{.*}} = %c0 to %[[TILES]] step %c1 {
// BOUND: kind = "attention"
