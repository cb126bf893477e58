//===- Windows.h - Windowed ops as sums of shifted ops ----------*- C++ -*-===//
//
// A convolution or pooling reads its input through windows
// (`in[oh * s + kh * d]`); each window position is a plain op over a strided
// slice of the input (DecomposeWindows.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_WINDOWS_H
#define STRATA_TRANSFORMS_WINDOWS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace strata {

/// Replaces windowed `op` (static shapes, at most 49 window positions) by
/// one op per window position, each accumulating into the previous one's
/// result, when the positions are contractions (a convolution's input
/// channels); otherwise (a depthwise convolution, a pooling) by one
/// elementwise op that applies `op`'s body once per position. Appends the
/// new ops to `terms`. Returns the last result; fails, changing nothing,
/// when `op` has no window of that kind.
mlir::FailureOr<mlir::Value> decomposeWindows(
    mlir::RewriterBase &rw, mlir::linalg::LinalgOp op,
    llvm::SmallVectorImpl<mlir::linalg::GenericOp> *terms = nullptr);

} // namespace strata

#endif // STRATA_TRANSFORMS_WINDOWS_H
