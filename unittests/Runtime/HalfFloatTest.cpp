//===- HalfFloatTest.cpp - bf16 and f16 bit patterns ----------------------===//
#include "strata/rt/HalfFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace strata::rt;

namespace {

float fromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

TEST(HalfFloat, RoundsToNearestEven) {
  EXPECT_EQ(toBF16(1.0f), 0x3f80);
  EXPECT_EQ(toBF16(fromBits(0x3f808000)), 0x3f80); // tie, to even
  EXPECT_EQ(toBF16(fromBits(0x3f818000)), 0x3f82); // tie, to even (up)
  EXPECT_EQ(fromBF16(0x3f80), 1.0f);
  EXPECT_EQ(toF16(1.0f), 0x3c00);
  EXPECT_EQ(toF16(65536.0f), 0x7c00); // overflow: infinity
  EXPECT_EQ(fromF16(0x0001), std::ldexp(1.0f, -24));
}

TEST(HalfFloat, NaNStaysNaN) {
  // A NaN whose payload sits in the low 16 bits used to round to infinity.
  float nan = fromBits(0x7f800001);
  EXPECT_TRUE(std::isnan(fromBF16(toBF16(nan))));
  EXPECT_TRUE(
      std::isnan(fromBF16(toBF16(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isnan(fromF16(toF16(nan))));
}

} // namespace
