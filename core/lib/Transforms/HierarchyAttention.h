//===- HierarchyAttention.h - Attention as one kernel -----------*- C++ -*-===//
//
// Recognizes, on buffers, scaled dot-product attention as PyTorch and JAX
// export it (after strata-decompose-aggregates has split the softmax):
//
//   [Kᵀ = transpose(K)]
//   S = 0; S += Q Kᵀ          batched contraction, one batch loop
//   S = scale(S)              elementwise ops on the scores (any number;
//                             they may read the loop indices: masks)
//   M = max_keys(S); E = exp(S - M); L = sum_keys(E)
//   P = E * (1 / L) or E / L  [zero on rows whose scores are all -inf:
//                             PyTorch's safe softmax, a row flag]
//   O = 0; O += P V           batched contraction
//
// and maps each such chain to one kernel of the description's levels with
// an online softmax (HierarchyAttentionModel.h): no buffer of queries x keys.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYATTENTION_H
#define STRATA_TRANSFORMS_HIERARCHYATTENTION_H

#include "strata/HW/Description.h"
#include "strata/Schedule/HierarchyModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace strata::hierarchy {

/// Maps every attention chain of `func` to one kernel each, before any other
/// op is mapped. A chain whose shapes or types the kernel does not handle is
/// left to the separate ops (with a remark); failure only on an error
/// already reported.
mlir::LogicalResult mapAttention(mlir::func::FuncOp func,
                                 const HierarchyLevels &levels,
                                 const hw::Description &chip);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYATTENTION_H
