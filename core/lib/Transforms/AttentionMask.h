//===- AttentionMask.h - Which keys a mask hides ----------------*- C++ -*-===//
//
// The analysis behind the attention kernel's key-tile skipping
// (HierarchyAttention.cpp): from the elementwise ops on the scores, a bound
// c such that every score whose key index exceeds its query index by more
// than c is -inf, so that a block of queries [q0, q0 + rows) needs only the
// keys [0, q0 + rows + c).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_ATTENTIONMASK_H
#define STRATA_TRANSFORMS_ATTENTIONMASK_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace strata::hierarchy {

/// The smallest c the analysis proves such that the value the last of
/// `scales` yields is -inf wherever key - query > c, with `query` and `key`
/// the loop indices of those positions in the ops (all of `scales` have the
/// same loops, each reading the previous one's result as its first input);
/// nullopt when no such c is found.
std::optional<int64_t>
keysAfterQueryMasked(llvm::ArrayRef<mlir::linalg::LinalgOp> scales,
                     unsigned query, unsigned key);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_ATTENTIONMASK_H
