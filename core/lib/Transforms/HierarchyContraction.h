//===- HierarchyContraction.h - What the hierarchy path maps --*- C++ -*-===//
//
// Recognizes, on buffers, a contraction C[m, n] (+)= A[m, k] * B[k, n] with
// one loop of each kind, the zero fill of C that precedes it and the
// elementwise consumer of C that can run as its epilogue.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H
#define STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace strata::hierarchy {

/// A contraction C[m, n] (+)= A[m, k] * B[k, n] on buffers, its zero fill
/// and its elementwise consumer, if any.
struct Contraction {
  mlir::linalg::LinalgOp op;
  unsigned m, n, k;
  mlir::OpOperand *a, *b, *c;
  mlir::linalg::FillOp fill; // zero fill of C folded into the kernel
  mlir::linalg::LinalgOp
      epilogue; // elementwise consumer applied before the store
  int64_t extentM, extentN, extentK;
};

/// Every loop of `op` is parallel.
bool allParallel(mlir::linalg::LinalgOp op);

/// `map` indexes exactly the loops `dims`, in that order.
bool indexes(mlir::AffineMap map, llvm::ArrayRef<unsigned> dims);

/// The contraction `op` is, with its fill and epilogue; failure when `op` is
/// not a contraction of one m, n and k loop on buffers.
mlir::FailureOr<Contraction> matchContraction(mlir::linalg::LinalgOp op);

} // namespace strata::hierarchy

#endif // STRATA_TRANSFORMS_HIERARCHYCONTRACTION_H
