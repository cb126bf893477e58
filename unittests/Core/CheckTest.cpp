//===- CheckTest.cpp - Random inputs, poison and comparison ---------------===//
#include "strata/Runtime/Check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace strata::runtime;

namespace {

TEST(Check, IdenticalResultsPass) {
  TensorSpec spec{ElementType::F32, {4, 8}};
  std::vector<float> a(32);
  fillRandom(a.data(), spec, 7);
  Comparison cmp = compare(a.data(), a.data(), spec);
  EXPECT_TRUE(cmp.passed);
  EXPECT_EQ(cmp.relativeError, 0);
}

TEST(Check, NarrowedInputsLoosenTheTolerance) {
  // bf16's 2e-2 for its 7 mantissa bits; TF32's 10 bits give 2.5e-3; a
  // type's own tolerance is never tightened.
  EXPECT_DOUBLE_EQ(tolerance(ElementType::F32, 0), 1e-4);
  EXPECT_DOUBLE_EQ(tolerance(ElementType::F32, 10), 2.5e-3);
  EXPECT_DOUBLE_EQ(tolerance(ElementType::F32, 7), 2e-2);
  EXPECT_DOUBLE_EQ(tolerance(ElementType::BF16, 10), 2e-2);
  TensorSpec spec{ElementType::F32, {2}};
  std::vector<float> want{1.0f, 1.0f}, got{1.001f, 1.001f};
  EXPECT_FALSE(compare(got.data(), want.data(), spec).passed);
  EXPECT_TRUE(
      compare(got.data(), want.data(), spec, tolerance(spec.type, 10)).passed);
}

TEST(Check, RandomInputsAreInRangeAndSeeded) {
  TensorSpec spec{ElementType::F32, {1000}};
  std::vector<float> a(1000), b(1000), c(1000);
  fillRandom(a.data(), spec, 1);
  fillRandom(b.data(), spec, 1);
  fillRandom(c.data(), spec, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (float v : a) {
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
}

TEST(Check, PoisonedOutputFails) {
  TensorSpec spec{ElementType::F32, {16}};
  std::vector<float> want(16, 1.0f), got(16);
  poison(got.data(), spec);
  EXPECT_TRUE(std::isnan(got[3]));
  Comparison cmp = compare(got.data(), want.data(), spec);
  EXPECT_FALSE(cmp.passed);
  EXPECT_EQ(cmp.nonFinite, 16);
}

// A reference that never wrote its output must not make a check pass.
TEST(Check, PoisonedReferenceFails) {
  TensorSpec spec{ElementType::F32, {16}};
  std::vector<float> got(16), want(16);
  poison(got.data(), spec);
  poison(want.data(), spec);
  EXPECT_FALSE(compare(got.data(), want.data(), spec).passed);
}

TEST(Check, ErrorAboveToleranceFails) {
  TensorSpec spec{ElementType::F32, {100}};
  std::vector<float> want(100, 1.0f), got(want);
  got[0] = 1.01f; // relative L2 error 1e-3 > 1e-4
  Comparison cmp = compare(got.data(), want.data(), spec);
  EXPECT_FALSE(cmp.passed);
  EXPECT_NEAR(cmp.relativeError, 1e-3, 1e-5);
  got[0] = 1.00001f;
  EXPECT_TRUE(compare(got.data(), want.data(), spec).passed);
}

TEST(Check, HalfPrecisionRoundTrips) {
  TensorSpec spec{ElementType::F16, {256}};
  std::vector<uint16_t> a(256);
  fillRandom(a.data(), spec, 3);
  // 1.0 is 0x3c00 in IEEE half; every value lies in [-1, 1].
  for (uint16_t bits : a)
    EXPECT_LE(bits & 0x7fff, 0x3c00);
  EXPECT_TRUE(compare(a.data(), a.data(), spec).passed);
}

TEST(Check, IntegersCompareExactly) {
  TensorSpec spec{ElementType::I32, {8}};
  std::vector<int32_t> a = {1, 2, 3, 4, 5, 6, 7, 8}, b = a;
  EXPECT_TRUE(compare(a.data(), b.data(), spec).passed);
  b[7] = 9;
  EXPECT_FALSE(compare(a.data(), b.data(), spec).passed);
}

TEST(Check, TensorSpecText) {
  TensorSpec spec{ElementType::BF16, {2, 3, 4}};
  EXPECT_EQ(spec.str(), "2x3x4xbf16");
  EXPECT_EQ(spec.bytes(), 48u);
  EXPECT_EQ(parseElementType("f16"), ElementType::F16);
  EXPECT_FALSE(parseElementType("f8").has_value());
}

} // namespace
