//===- HierarchyReduction.h - Reductions over the levels ------*- C++ -*-===//
//
// Row reductions on the hierarchy path: one group of lanes per output
// element (a row), the lanes striding over the row and combining their
// partial results with a butterfly of shuffles across the group.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYREDUCTION_H
#define STRATA_TRANSFORMS_HIERARCHYREDUCTION_H

#include "strata/Schedule/HierarchyModel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace strata::hierarchy {

class KernelBuilder;

/// The op of `op`'s body that folds an element into the accumulator: it
/// takes the output's block argument (its only use) and yields the result;
/// null when there is no such op.
mlir::Operation *combiner(mlir::linalg::LinalgOp op);

/// comb(x, y) with `comb`'s kind.
mlir::Value combine(mlir::ImplicitLocOpBuilder &b, mlir::Operation *comb,
                    mlir::Value x, mlir::Value y);

/// The combination of `partial` over the `lanes` lanes of a group, in each
/// of them: a butterfly of gpu.shuffle xor (lanes a power of two).
mlir::Value groupReduce(mlir::ImplicitLocOpBuilder &b, mlir::Operation *comb,
                        mlir::Value partial, int64_t lanes);

/// Row-major values of the loops `dims` (extents `extents`, indexed by
/// loop) at linear index `linear`, written into `loops`.
void delinearize(KernelBuilder &k, mlir::Value linear,
                 llvm::ArrayRef<unsigned> dims, llvm::ArrayRef<int64_t> extents,
                 llvm::MutableArrayRef<mlir::Value> loops);

/// `op` has reduction loops, one output indexed by exactly its parallel
/// loops (each once) and a body that folds each element into the
/// accumulator with one combining op (add, mul, max, min, and, or, xor).
bool isRowReduction(mlir::linalg::LinalgOp op);

/// The fill of a constant of `op`'s output right before `op`, with no other
/// use of the output in between (the reduction starts from the constant).
mlir::linalg::FillOp foldableFill(mlir::linalg::LinalgOp op);

/// Maps the row reduction `op` to the levels, with `fill` (may be null)
/// folded into it; errors (dynamic extents, accumulators over 32 bits)
/// are reported on `op`.
mlir::LogicalResult emitReduction(mlir::ImplicitLocOpBuilder &b,
                                  mlir::linalg::LinalgOp op,
                                  mlir::linalg::FillOp fill,
                                  const HierarchyLevels &levels);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYREDUCTION_H
