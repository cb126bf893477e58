//===- FloatConversions.h - Elementwise float width changes -----*- C++ -*-===//
//
// What the passes that compute narrow floats wider share: which types are
// narrow, and converting a scalar or a tensor to another float width.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_FLOATCONVERSIONS_H
#define STRATA_TRANSFORMS_FLOATCONVERSIONS_H

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace strata {

/// Whether `type` is bf16 or f16.
bool isNarrowFloat(mlir::Type type);

/// `value` (a float scalar or a ranked tensor of floats) converted
/// elementwise to `type` (arith.extf or arith.truncf); a tensor through a
/// linalg.generic into a fresh tensor, so later stages see only linalg.
mlir::Value convertFloats(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type type);

/// `fn` applied to each element of the ranked tensor `value`: a
/// linalg.generic over identity maps into a fresh tensor of `elementType`.
mlir::Value
mapElements(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
            mlir::Type elementType,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Value)>
                fn);

/// The f32 accumulator of a reduction whose init is `init` (a bf16/f16
/// tensor): a fill is filled in f32, any other init is extended.
mlir::Value widenedAccumulator(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value init);

} // namespace strata

#endif // STRATA_TRANSFORMS_FLOATCONVERSIONS_H
