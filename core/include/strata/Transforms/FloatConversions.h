//===- FloatConversions.h - Elementwise float width changes -----*- C++ -*-===//
//
// What the passes that compute narrow floats wider share: which types are
// narrow, and converting a scalar or a tensor to another float width.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_FLOATCONVERSIONS_H
#define STRATA_TRANSFORMS_FLOATCONVERSIONS_H

#include "mlir/IR/Builders.h"

namespace strata {

/// Whether `type` is bf16 or f16.
bool isNarrowFloat(mlir::Type type);

/// `value` (a float scalar or a ranked tensor of floats) converted
/// elementwise to `type` (arith.extf or arith.truncf); a tensor through a
/// linalg.generic into a fresh tensor, so later stages see only linalg.
mlir::Value convertFloats(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type type);

} // namespace strata

#endif // STRATA_TRANSFORMS_FLOATCONVERSIONS_H
