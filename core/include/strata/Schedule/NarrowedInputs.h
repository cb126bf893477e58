//===- NarrowedInputs.h - Inputs a matrix intrinsic rounds ------*- C++ -*-===//
//
// Which functions of a scheduled module multiply their inputs on a matrix
// intrinsic that keeps fewer mantissa bits than the inputs have (f32 read as
// tf32): their results are checked with that precision's tolerance and
// their roofline is that type's.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_NARROWEDINPUTS_H
#define STRATA_SCHEDULE_NARROWEDINPUTS_H

#include "strata/HW/Description.h"

#include "mlir/IR/BuiltinOps.h"

#include <map>
#include <string>

namespace strata {

/// Explicit mantissa bits `mi` keeps of each operand element, 0 when it
/// keeps the input type's: the description's `input_mantissa_bits`, else
/// 10 for tf32 operands (which f32 inputs meet only when the user allowed
/// tf32).
int64_t keptMantissaBits(const hw::MatrixIntrinsic &mi);

/// How a function's inputs are narrowed by the intrinsics it uses.
struct NarrowedInputs {
  int64_t mantissaBits = 0; ///< the fewest any of them keeps
  std::string type;         ///< the operand type of that intrinsic ("tf32")
};

/// Per function of `module`, after S3/S4: the narrowing of the matrix
/// intrinsics its schedules name (flat schedules on linalg ops, hierarchy
/// schedules' `intrinsic` on kernels). Functions without one are absent.
std::map<std::string, NarrowedInputs>
narrowedInputs(mlir::ModuleOp module, const hw::Description &chip);

} // namespace strata

#endif // STRATA_SCHEDULE_NARROWEDINPUTS_H
