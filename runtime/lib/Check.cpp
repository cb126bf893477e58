//===- Check.cpp - Random inputs, poisoned outputs, comparison ------------===//
#include "strata/rt/Check.h"
#include "strata/rt/HalfFloat.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace strata::rt;

/// Element `i` of `data` as a double.
static double load(const void *data, ElementType type, int64_t i) {
  switch (type) {
  case ElementType::F64:
    return static_cast<const double *>(data)[i];
  case ElementType::F32:
    return static_cast<const float *>(data)[i];
  case ElementType::F16:
    return fromF16(static_cast<const uint16_t *>(data)[i]);
  case ElementType::BF16:
    return fromBF16(static_cast<const uint16_t *>(data)[i]);
  case ElementType::I64:
    return double(static_cast<const int64_t *>(data)[i]);
  case ElementType::I32:
    return static_cast<const int32_t *>(data)[i];
  case ElementType::I16:
    return static_cast<const int16_t *>(data)[i];
  case ElementType::I8:
    return static_cast<const int8_t *>(data)[i];
  case ElementType::I1:
    return static_cast<const uint8_t *>(data)[i] & 1;
  }
  return 0;
}

/// Stores `value` as element `i` of `data`.
static void store(void *data, ElementType type, int64_t i, double value) {
  switch (type) {
  case ElementType::F64:
    static_cast<double *>(data)[i] = value;
    return;
  case ElementType::F32:
    static_cast<float *>(data)[i] = float(value);
    return;
  case ElementType::F16:
    static_cast<uint16_t *>(data)[i] = toF16(float(value));
    return;
  case ElementType::BF16:
    static_cast<uint16_t *>(data)[i] = toBF16(float(value));
    return;
  case ElementType::I64:
    static_cast<int64_t *>(data)[i] = int64_t(value);
    return;
  case ElementType::I32:
    static_cast<int32_t *>(data)[i] = int32_t(value);
    return;
  case ElementType::I16:
    static_cast<int16_t *>(data)[i] = int16_t(value);
    return;
  case ElementType::I8:
    static_cast<int8_t *>(data)[i] = int8_t(value);
    return;
  case ElementType::I1:
    static_cast<uint8_t *>(data)[i] = uint8_t(int64_t(value) & 1);
    return;
  }
}

void strata::rt::fillRandom(void *data, const TensorSpec &spec, uint64_t seed) {
  std::mt19937_64 engine(seed);
  int64_t count = spec.numElements();
  if (spec.type == ElementType::F32) {
    // The common case, without the double round trip.
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    float *out = static_cast<float *>(data);
    for (int64_t i = 0; i < count; ++i)
      out[i] = dist(engine);
    return;
  }
  if (isFloat(spec.type)) {
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (int64_t i = 0; i < count; ++i)
      store(data, spec.type, i, dist(engine));
    return;
  }
  std::uniform_int_distribution<int> dist(-8, 8);
  for (int64_t i = 0; i < count; ++i)
    store(data, spec.type, i, dist(engine));
}

uint64_t strata::rt::inputSeed(uint64_t seed, size_t index) {
  return seed * 1000003 + index;
}

void strata::rt::poison(void *data, const TensorSpec &spec) {
  if (isFloat(spec.type)) {
    // All-ones bytes are a NaN in every IEEE format.
    std::memset(data, 0xff, spec.bytes());
    return;
  }
  std::memset(data, 0x5a, spec.bytes());
}

double strata::rt::tolerance(ElementType type) {
  switch (type) {
  case ElementType::F64:
    return 1e-10;
  case ElementType::F32:
    return 1e-4;
  case ElementType::F16:
    return 1e-2;
  case ElementType::BF16:
    return 2e-2;
  default:
    return 0;
  }
}

double strata::rt::tolerance(ElementType type, int64_t inputMantissaBits) {
  if (inputMantissaBits <= 0)
    return tolerance(type);
  return std::max(tolerance(type),
                  2.56 * std::ldexp(1.0, -int(inputMantissaBits)));
}

Comparison strata::rt::compare(const void *got, const void *want,
                               const TensorSpec &spec) {
  return compare(got, want, spec, tolerance(spec.type));
}

Comparison strata::rt::compare(const void *got, const void *want,
                               const TensorSpec &spec, double tol) {
  Comparison result;
  double diff = 0, norm = 0;
  int64_t count = spec.numElements();
  for (int64_t i = 0; i < count; ++i) {
    double a = load(got, spec.type, i), b = load(want, spec.type, i);
    if (!std::isfinite(a) || !std::isfinite(b)) {
      // Equal infinities agree; a NaN on either side (an output left
      // poisoned, or an invalid operation) never does.
      if (a != b)
        ++result.nonFinite;
      continue;
    }
    diff += (a - b) * (a - b);
    result.maxAbsError = std::max(result.maxAbsError, std::abs(a - b));
    norm += b * b;
  }
  result.relativeError = std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
  if (norm == 0)
    result.relativeError = std::sqrt(diff);
  result.passed = result.nonFinite == 0 && result.relativeError <= tol;
  return result;
}
