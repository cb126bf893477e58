// Causal attention as PyTorch exports it compiles for the H200, as separate
// kernels: the fused attention kernel (nvidia-attention.mlir) does not take
// masks and the safe-softmax tail yet (docs/nvidia-target.md, "Not done
// yet"). The mask is already index arithmetic in the scores' kernel (S2),
// not a tensor. When the kernel takes masks, this test changes.
// REQUIRES: nvidia-plugin
// RUN: strata-compile %S/../../../examples/models/attention_causal.mlir --target=nvidia-h200 --emit=mlir -o - | FileCheck %s

// CHECK-LABEL: func.func @attention_causal
// CHECK-NOT: kind = "attention"
// CHECK-NOT: memref<197x197xf32>
// CHECK: arith.cmpi sle
// CHECK-NOT: kind = "attention"
