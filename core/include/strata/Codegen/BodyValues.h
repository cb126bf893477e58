//===- BodyValues.h - A linalg body as a sequence of unit ops ---*- C++ -*-===//
//
// For plugins that run a linalg body one op at a time over whole blocks (a
// vector unit with buffer operands): which body op can write the output
// directly, a buffer slot per intermediate value (reused once the value is
// dead), scalar constants, and the zero fill a contraction can absorb.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_BODYVALUES_H
#define STRATA_CODEGEN_BODYVALUES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace strata::codegen {

/// The body op whose result is yielded, when no later body op still reads
/// the output's old value: it may write the output buffer itself. Null when
/// the body yields a block argument or the old value is read later.
mlir::Operation *directWriter(mlir::linalg::LinalgOp op);

/// A slot per value computed in the body (constants and `direct` excluded);
/// a slot is reused, by a value of the same type, once its value is dead:
/// an op may write the slot its operand held (same element, same point).
struct BodySlots {
  llvm::DenseMap<mlir::Value, int> slotOf;
  llvm::SmallVector<mlir::Type> types;
};
BodySlots assignBodySlots(mlir::linalg::LinalgOp op, mlir::Operation *direct);

/// The value of a scalar float or integer constant.
std::optional<double> constantValue(mlir::Value v);

/// The linalg.fill of zero right before `op` into the same output: a
/// contraction can start its accumulator from zero instead.
mlir::linalg::FillOp zeroFillBefore(mlir::linalg::LinalgOp op);

} // namespace strata::codegen

#endif // STRATA_CODEGEN_BODYVALUES_H
