//===- Check.h - Random inputs, poisoned outputs, comparison ----*- C++ -*-===//
//
// How every compiled program is checked (DESIGN.md §8): fresh random inputs,
// outputs poisoned before the run, results compared with the reference by
// relative L2 error with a tolerance per element type.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_CHECK_H
#define STRATA_RUNTIME_CHECK_H

#include "strata/Runtime/Tensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace strata::runtime {

/// The destination-passing signature of a tensor function: statically shaped
/// tensor arguments are inputs, tensor results become trailing outputs.
/// Other argument or result types are an error naming the argument.
llvm::Expected<Signature> signatureOf(mlir::func::FuncOp func);

/// Fills `data` with uniform values in [-1, 1) (floats) or [-8, 8] (ints).
void fillRandom(void *data, const TensorSpec &spec, uint64_t seed);
/// Fills `data` with NaN (floats) or a recognisable pattern (ints).
void poison(void *data, const TensorSpec &spec);

/// The relative L2 error a result of this type may have.
double tolerance(ElementType type);
/// The relative L2 error a result of this type may have when it was
/// computed from inputs kept with `inputMantissaBits` explicit mantissa bits
/// (a matrix unit reading f32 as TF32): the looser of the type's tolerance
/// and 2.56 x 2^-bits (bf16's 2e-2 for its 7 bits). 0 bits: the type's.
double tolerance(ElementType type, int64_t inputMantissaBits);

struct Comparison {
  double relativeError = 0; ///< ||got - want|| / max(||want||, tiny)
  int64_t nonFinite = 0;    ///< elements where either side is NaN/Inf and
                            ///< the two differ
  bool passed = false;
};

/// Compares a result with the reference's.
Comparison compare(const void *got, const void *want, const TensorSpec &spec);
/// The same with an explicit tolerance.
Comparison compare(const void *got, const void *want, const TensorSpec &spec,
                   double tolerance);

} // namespace strata::runtime

#endif // STRATA_RUNTIME_CHECK_H
