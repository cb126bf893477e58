//===- Check.h - Random inputs, poisoned outputs, comparison ----*- C++ -*-===//
//
// How every compiled program is checked (docs/architecture.md): fresh random
// inputs, outputs poisoned before the run, results compared with the
// reference by relative L2 error with a tolerance per element type.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_CHECK_H
#define STRATA_RT_CHECK_H

#include "strata/rt/Tensor.h"

#include <cstdint>

namespace strata::rt {

/// Fills `data` with uniform values in [-1, 1) (floats) or [-8, 8] (ints).
void fillRandom(void *data, const TensorSpec &spec, uint64_t seed);
/// The seed of input `index` of a run seeded with `seed` (strata-run and
/// strata-exec draw the same inputs from the same seed).
uint64_t inputSeed(uint64_t seed, size_t index);
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
  double maxAbsError = 0;   ///< the largest |got - want| of finite pairs
  int64_t nonFinite = 0;    ///< elements where either side is NaN/Inf and
                            ///< the two differ
  bool passed = false;
};

/// Compares a result with the reference's.
Comparison compare(const void *got, const void *want, const TensorSpec &spec);
/// The same with an explicit tolerance.
Comparison compare(const void *got, const void *want, const TensorSpec &spec,
                   double tolerance);

} // namespace strata::rt

#endif // STRATA_RT_CHECK_H
