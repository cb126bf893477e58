//===- HalfFloat.cpp - bf16 and f16 bit patterns --------------------------===//
#include "strata/rt/HalfFloat.h"

#include <cmath>
#include <cstring>

uint16_t strata::rt::toBF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if (std::isnan(value)) // stays a (quiet) NaN, not rounded to infinity
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}
float strata::rt::fromBF16(uint16_t value) {
  uint32_t bits = uint32_t(value) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}
/// f32 → IEEE half through APFloat-free bit manipulation (round to nearest
/// even, overflow to infinity, NaN kept).
uint16_t strata::rt::toF16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = int32_t((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff)
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(sign | half);
}
float strata::rt::fromF16(uint16_t value) {
  uint32_t sign = uint32_t(value & 0x8000) << 16;
  uint32_t exponent = (value >> 10) & 0x1f;
  uint32_t mantissa = value & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        ++shift;
      }
      bits = sign | (uint32_t(113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  }
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}
