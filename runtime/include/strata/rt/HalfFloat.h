//===- HalfFloat.h - bf16 and f16 bit patterns ------------------*- C++ -*-===//
//
// Conversions between f32 and the 16-bit float formats, without LLVM: round
// to nearest even, overflow to infinity, NaN kept a quiet NaN. Used by the
// runtime's checks and by simulators that store narrow floats.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_HALFFLOAT_H
#define STRATA_RT_HALFFLOAT_H

#include <cstdint>

namespace strata::rt {

uint16_t toBF16(float value);
float fromBF16(uint16_t value);
uint16_t toF16(float value);
float fromF16(uint16_t value);

} // namespace strata::rt

#endif // STRATA_RT_HALFFLOAT_H
