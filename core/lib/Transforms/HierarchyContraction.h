//===- HierarchyContraction.h - What the hierarchy path maps --*- C++ -*-===//
//
// Recognizes, on buffers, a contraction C[b.., m, n] (+)= A[b.., m, k] *
// B[b.., k, n] with one m, n and k loop and any number of batch loops (an
// operand may lack some: it is broadcast over them), the zero fill of C that
// precedes it and the elementwise consumer of C that can run as its
// epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H
#define STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace strata::hierarchy {

/// A contraction C[b.., m, n] (+)= A[b.., m, k] * B[b.., k, n] on buffers,
/// its zero fill and its elementwise consumer, if any.
struct Contraction {
  mlir::linalg::LinalgOp op;
  unsigned m = 0, n = 0, k = 0;
  /// Batch loops in the order C indexes them (outermost first), their
  /// extents and the product of those (1 without batch loops).
  llvm::SmallVector<unsigned> batch;
  llvm::SmallVector<int64_t> batchExtents;
  int64_t extentBatch = 1;
  /// While a kernel is emitted: the values of the batch loops in it.
  llvm::SmallVector<mlir::Value> batchValues;
  mlir::OpOperand *a = nullptr, *b = nullptr, *c = nullptr;
  mlir::linalg::FillOp fill; // zero fill of C folded into the kernel
  mlir::linalg::LinalgOp
      epilogue; // elementwise consumer applied before the store
  int64_t extentM = 0, extentN = 0, extentK = 0;
};

/// Every loop of `op` is parallel.
bool allParallel(mlir::linalg::LinalgOp op);

/// `map` indexes exactly the loops `dims`, in that order.
bool indexes(mlir::AffineMap map, llvm::ArrayRef<unsigned> dims);

/// Users of `buffer` other than `except`, `from` and `to` between `from`
/// and `to` (same block), or after `from` when `to` is null; users in other
/// blocks count.
bool usedBetween(mlir::Value buffer, mlir::Operation *from, mlir::Operation *to,
                 llvm::ArrayRef<mlir::Operation *> except);

/// The contraction `op` is, with its fill and epilogue; failure when `op` is
/// not a contraction of one m, n and k loop (and batch loops) on buffers.
mlir::FailureOr<Contraction> matchContraction(mlir::linalg::LinalgOp op);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H
