//===- HierarchyAttentionChain.h - The attention chain ----------*- C++ -*-===//
//
// The ops of one attention chain (HierarchyAttention.h) on buffers: the two
// batched contractions, the transpose of K, the scale ops and the softmax
// between them, and what the kernel that replaces them needs to know.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYATTENTIONCHAIN_H
#define STRATA_TRANSFORMS_HIERARCHYATTENTIONCHAIN_H

#include "strata/Schedule/HierarchyAttentionModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace strata::hierarchy {

/// A batched contraction of one batch, m, n and k loop on buffers.
struct Batched {
  mlir::linalg::LinalgOp op;
  unsigned batch = 0, m = 0, n = 0, k = 0;
  mlir::OpOperand *a = nullptr, *b = nullptr, *c = nullptr;
  int64_t extentBatch = 0, extentM = 0, extentN = 0, extentK = 0;
};

/// One attention chain.
struct Chain {
  Batched qk, pv;
  mlir::linalg::LinalgOp transpose; // writes QK's B operand from K, or null
  mlir::linalg::FillOp qkFill, pvFill;
  llvm::SmallVector<mlir::linalg::LinalgOp>
      scales; // on the scores before the softmax (may read the loop indices)
  /// The row flag of PyTorch's safe softmax: whether some scaled score of
  /// the row is not -inf; P is zero on rows where it is false. Or null.
  mlir::linalg::LinalgOp flag;
  /// c with every scaled score -inf where key - query > c (AttentionMask.h).
  std::optional<int64_t> keysMaskedAfter;
  llvm::SmallVector<mlir::Operation *>
      ops; // the chain's ops, erased once mapped
  llvm::SmallVector<mlir::Value> temporaries; // buffers only the chain uses
  HierarchyAttentionShape shape;
  mlir::Type inputType, scoreType;
};

/// `op` as a batched contraction of one batch, m, n and k loop with static
/// extents, C indexed (batch, m, n); failure otherwise.
mlir::FailureOr<Batched> matchBatched(mlir::linalg::LinalgOp op);

/// The chain whose first product is `qk`, or failure.
mlir::FailureOr<Chain> matchChain(mlir::linalg::LinalgOp qk);

/// The kernel replaces the chain at the second product, so it reads K later
/// than the transpose (or the first product) did, Q later than the first
/// product did (K without a transpose, written by some op before the chain,
/// is no different: only what comes between matters). Safe when nothing but the
/// chain uses those buffers (or the output) in between, except deallocations,
/// which move after the second product, and when the output is not a buffer
/// other blocks read; false, changing nothing, otherwise.
bool makeRoomAtSecondProduct(Chain &ch);

/// The value `op`'s body yields (null unless exactly one).
mlir::Value yielded(mlir::linalg::LinalgOp op);

/// The block argument `i` of `op`'s body.
mlir::Value arg(mlir::linalg::LinalgOp op, unsigned i);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYATTENTIONCHAIN_H
