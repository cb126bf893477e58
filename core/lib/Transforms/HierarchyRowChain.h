//===- HierarchyRowChain.h - Row-wise chains in one kernel ----*- C++ -*-===//
//
// A run of consecutive ops that all work row by row over the same rows
// (softmax: max, exp(x - max), sum, 1 / sum, product; layernorm: sum, mean,
// squared deviations, rstd, the normalization) becomes one kernel in which
// a group owns a row and keeps the row's reduced values in registers.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYROWCHAIN_H
#define STRATA_TRANSFORMS_HIERARCHYROWCHAIN_H

#include "strata/Schedule/HierarchyModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/ADT/DenseSet.h"

namespace strata::hierarchy {

/// Ops of one row-wise chain, in program order: fills of row buffers, row
/// reductions, elementwise ops over the rows (one value per row) and over
/// the rows' elements. Loops of every op: the P row loops first (the same
/// extents in each op), then, for reductions and element ops, the row's
/// own loops (the same extents too).
struct RowChain {
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  llvm::SmallVector<int64_t> rowExtents, colExtents;
};

/// The longest chain starting at `start` (a fill or a row reduction) of
/// consecutive ops in its block, none of them in `excluded`; nullopt when
/// there is none of a reduction and at least one other op (not a fill). Within
/// a chain every access to a buffer the chain writes stays in the accessing
/// op's row (the same element of a row, or the row's own value), so running the
/// ops row after row instead of op after op computes the same.
std::optional<RowChain>
matchRowChain(mlir::linalg::LinalgOp start,
              const llvm::DenseSet<mlir::Operation *> &excluded);

/// Emits the kernel of `chain` before its last op (the ops stay).
mlir::LogicalResult emitRowChain(mlir::ImplicitLocOpBuilder &b,
                                 const RowChain &chain,
                                 const HierarchyLevels &levels);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYROWCHAIN_H
