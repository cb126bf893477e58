//===- ExpApproximation.h - A lean f32 exp ----------------------*- C++ -*-===//
#ifndef STRATA_TRANSFORMS_EXPAPPROXIMATION_H
#define STRATA_TRANSFORMS_EXPAPPROXIMATION_H

#include "mlir/IR/PatternMatch.h"

namespace strata {

/// Adds the pattern that expands `math.exp` on f32 scalars and vectors into
/// 17 arith/math ops (see ExpApproximation.cpp).
void populateExpApproximationPatterns(mlir::RewritePatternSet &patterns);

} // namespace strata

#endif // STRATA_TRANSFORMS_EXPAPPROXIMATION_H
