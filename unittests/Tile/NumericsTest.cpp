//===- NumericsTest.cpp - bf16 rounding, face layout and tile math --------===//
#include "strata/Tile/Emulator/Numerics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace strata::tile;

static float fromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

TEST(Bf16, RoundsToNearestEven) {
  EXPECT_EQ(toBf16(1.0f), 0x3f80);
  // 1 + 2^-8 is halfway between 1 (even mantissa) and 1 + 2^-7: down.
  EXPECT_EQ(toBf16(fromBits(0x3f808000)), 0x3f80);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: up.
  EXPECT_EQ(toBf16(fromBits(0x3f818000)), 0x3f82);
  // Just above halfway rounds up, just below down.
  EXPECT_EQ(toBf16(fromBits(0x3f808001)), 0x3f81);
  EXPECT_EQ(toBf16(fromBits(0x3f807fff)), 0x3f80);
  // Negative values round by magnitude.
  EXPECT_EQ(toBf16(fromBits(0xbf818000)), 0xbf82);
}

TEST(Bf16, SpecialValues) {
  EXPECT_EQ(toBf16(std::numeric_limits<float>::infinity()), 0x7f80);
  // The largest float rounds up to infinity.
  EXPECT_EQ(toBf16(std::numeric_limits<float>::max()), 0x7f80);
  uint16_t nan = toBf16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(fromBf16(nan)));
  // A NaN whose payload sits in the low half stays a NaN.
  EXPECT_TRUE(std::isnan(fromBf16(toBf16(fromBits(0x7f800001)))));
  EXPECT_EQ(fromBf16(0x3f80), 1.0f);
  EXPECT_EQ(roundToBf16(-0.0f), -0.0f);
}

TEST(TileMath, ScalarOperands) {
  float x[] = {1.0f, -2.0f, 0.5f, NAN};
  float y[4];
  std::copy(x, x + 4, y);
  eltwiseScalar(VectorOp::Rsub, y, 4, 3.0f); // 3 - x
  EXPECT_EQ(y[0], 2.0f);
  EXPECT_EQ(y[1], 5.0f);
  std::copy(x, x + 4, y);
  eltwiseScalar(VectorOp::Min, y, 4, 0.75f);
  EXPECT_EQ(y[0], 0.75f);
  EXPECT_EQ(y[1], -2.0f);
  EXPECT_EQ(y[2], 0.5f);
  EXPECT_TRUE(std::isnan(y[3])); // NaN propagates, as in max
  std::copy(x, x + 4, y);
  eltwiseScalar(VectorOp::Mul, y, 4, 0.5f);
  EXPECT_EQ(y[1], -1.0f);
  eltwiseUnary(VectorOp::Tanh, y, 3);
  EXPECT_FLOAT_EQ(y[0], std::tanh(0.5f));
}

TEST(TileMath, UnpackBroadcasts) {
  std::vector<float> t(16);
  for (int i = 0; i < 16; ++i)
    t[i] = float(i);
  std::vector<float> col = t, row = t, scalar = t;
  broadcastTile(col.data(), 4, 4, BroadcastKind::Col);
  broadcastTile(row.data(), 4, 4, BroadcastKind::Row);
  broadcastTile(scalar.data(), 4, 4, BroadcastKind::Scalar);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) {
      EXPECT_EQ(col[r * 4 + c], float(r * 4)) << r << "," << c;
      EXPECT_EQ(row[r * 4 + c], float(c)) << r << "," << c;
      EXPECT_EQ(scalar[r * 4 + c], 0.0f);
    }
}

TEST(Tf32, TruncatesTheMantissaTowardZero) {
  // 1 + 2^-10 keeps its last TF32 bit; 2^-11 and below are dropped, for
  // either sign (toward zero, not to nearest).
  float x[] = {1.0f + 0x1p-10f, 1.0f + 0x1p-11f + 0x1p-12f,
               -(1.0f + 0x1p-11f + 0x1p-12f), 3.0f, NAN};
  truncateMantissa(x, 5, 10);
  EXPECT_EQ(x[0], 1.0f + 0x1p-10f);
  EXPECT_EQ(x[1], 1.0f);
  EXPECT_EQ(x[2], -1.0f);
  EXPECT_EQ(x[3], 3.0f);
  EXPECT_TRUE(std::isnan(x[4]));
  float full = 1.0f + 0x1p-23f;
  truncateMantissa(&full, 1, 23);
  EXPECT_EQ(full, 1.0f + 0x1p-23f);
}

TEST(TileGeometry, FacesAreRowMajor) {
  TileGeometry g(32, 32, 16, 16);
  EXPECT_EQ(g.storedIndex(0), 0);
  EXPECT_EQ(g.storedIndex(15), 15);
  EXPECT_EQ(g.storedIndex(16), 256);           // (0, 16): face 1
  EXPECT_EQ(g.storedIndex(32), 16);            // (1, 0): face 0, row 1
  EXPECT_EQ(g.storedIndex(16 * 32), 512);      // (16, 0): face 2
  EXPECT_EQ(g.storedIndex(17 * 32 + 18), 786); // (17, 18): face 3, (1, 2)
  TileGeometry wide(32, 32, 16, 32);
  EXPECT_EQ(wide.storedIndex(16), 16);       // one face per 16 rows
  EXPECT_EQ(wide.storedIndex(16 * 32), 512); // (16, 0): face 1
}

TEST(TileGeometry, PackRoundsAndUnpackRestores) {
  TileGeometry g(32, 32, 16, 16);
  std::vector<float> values(1024), back(1024);
  for (int i = 0; i < 1024; ++i)
    values[i] = float(i) / 3.0f;
  std::vector<uint8_t> stored(2048);
  g.pack(values.data(), TileFormat::BF16, stored.data());
  g.unpack(stored.data(), TileFormat::BF16, back.data());
  for (int i = 0; i < 1024; ++i)
    EXPECT_EQ(back[i], roundToBf16(values[i])) << i;
  // Element (0, 16) is the first of face 1, at byte 2 * 256.
  uint16_t half;
  std::memcpy(&half, stored.data() + 512, 2);
  EXPECT_EQ(half, toBf16(values[16]));

  std::vector<uint8_t> stored32(4096);
  g.pack(values.data(), TileFormat::F32, stored32.data());
  g.unpack(stored32.data(), TileFormat::F32, back.data());
  EXPECT_EQ(back, values);
}

TEST(TileMath, MatmulAccumulatesInF32) {
  std::vector<float> a(1024), b(1024), c(1024, 1.0f);
  for (int i = 0; i < 1024; ++i) {
    a[i] = roundToBf16(float((i * 7) % 13) - 6.0f);
    b[i] = roundToBf16(float((i * 5) % 11) / 4.0f);
  }
  matmulAccumulate(a.data(), b.data(), c.data(), 32, 32, 32);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      double want = 1.0;
      for (int k = 0; k < 32; ++k)
        want += double(a[i * 32 + k]) * double(b[k * 32 + j]);
      EXPECT_EQ(c[i * 32 + j], float(want)) << i << "," << j;
    }
  // A shape other than 32x32x32 takes the general loop.
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {1, 0, 0, 1, 1, 1}, z(4, 0);
  matmulAccumulate(x.data(), y.data(), z.data(), 2, 3, 2);
  EXPECT_EQ(z, (std::vector<float>{4, 5, 10, 11}));
}

TEST(TileMath, BroadcastsAndReductions) {
  std::vector<float> a(1024), b(1024), out(1024);
  for (int i = 0; i < 1024; ++i) {
    a[i] = float(i % 32);
    b[i] = float(i / 32) * 100.0f + float(i % 32);
  }
  eltwiseBinary(VectorOp::Sub, a.data(), b.data(), out.data(), 32, 32,
                BroadcastKind::Col);
  EXPECT_EQ(out[5 * 32 + 7], 7.0f - 500.0f); // b[5][0]
  eltwiseBinary(VectorOp::Add, a.data(), b.data(), out.data(), 32, 32,
                BroadcastKind::Row);
  EXPECT_EQ(out[5 * 32 + 7], 7.0f + 7.0f); // b[0][7]
  eltwiseBinary(VectorOp::Mul, a.data(), b.data(), out.data(), 32, 32,
                BroadcastKind::Scalar);
  EXPECT_EQ(out[5 * 32 + 7], 0.0f); // b[0][0] = 0
  eltwiseBinary(VectorOp::Max, a.data(), b.data(), out.data(), 32, 32,
                BroadcastKind::None);
  EXPECT_EQ(out[5 * 32 + 7], 507.0f);

  std::vector<float> acc(1024, 0.0f);
  reduceAccumulate(false, true, a.data(), acc.data(), 32, 32);
  EXPECT_EQ(acc[3 * 32], 496.0f); // 0 + 1 + ... + 31
  EXPECT_EQ(acc[3 * 32 + 1], 0.0f);
  reduceAccumulate(false, true, a.data(), acc.data(), 32, 32);
  EXPECT_EQ(acc[3 * 32], 992.0f); // accumulates
  std::fill(acc.begin(), acc.end(), -1e30f);
  reduceAccumulate(true, false, b.data(), acc.data(), 32, 32);
  EXPECT_EQ(acc[7], 3107.0f); // column 7: max is row 31
}

TEST(TileMath, VectorOps) {
  std::vector<float> x = {0.0f, 1.0f, -2.0f, 4.0f};
  eltwiseUnary(VectorOp::Exp, x.data(), 4);
  EXPECT_FLOAT_EQ(x[1], std::exp(1.0f));
  std::vector<float> y = {2.0f, -4.0f, 0.25f, 1.0f};
  eltwiseUnary(VectorOp::Recip, y.data(), 4);
  EXPECT_EQ(y, (std::vector<float>{0.5f, -0.25f, 4.0f, 1.0f}));
  std::vector<float> g = {0.0f, 1.0f, -1.0f, 3.0f};
  eltwiseUnary(VectorOp::Gelu, g.data(), 4);
  EXPECT_EQ(g[0], 0.0f);
  EXPECT_NEAR(g[1], 0.841192f, 1e-5f); // tanh form
  EXPECT_NEAR(g[2], -0.158808f, 1e-5f);
  std::vector<float> r = {-1.0f, 2.0f, 4.0f, 16.0f};
  eltwiseUnary(VectorOp::Relu, r.data(), 1);
  eltwiseUnary(VectorOp::Rsqrt, r.data() + 2, 2);
  EXPECT_EQ(r, (std::vector<float>{0.0f, 2.0f, 0.5f, 0.25f}));
}

TEST(Bfp, UnpackFollowsTheDocumentedConversion) {
  // tt-isa-documentation FloatBitPatterns.md: value = mag / 2^6 *
  // 2^(exp - 127); magnitude 0 is +0, or -2^128 with the sign set.
  EXPECT_EQ(fromBf16(bfp8ToBf16(0x40, 127)), 1.0f);      // 64 / 64
  EXPECT_EQ(fromBf16(bfp8ToBf16(0x7f, 127)), 1.984375f); // 127 / 64
  EXPECT_EQ(fromBf16(bfp8ToBf16(0x01, 127)), 1.0f / 64);
  EXPECT_EQ(fromBf16(bfp8ToBf16(0xa0, 130)), -4.0f); // -(32 / 64) * 8
  EXPECT_EQ(bfp8ToBf16(0x00, 200), 0u);
  EXPECT_EQ(bfp8ToBf16(0x80, 200), 0xff80u);
}

TEST(Bfp, GroupsShareTheLargestExponentAndRoundHalfAway) {
  float values[16] = {1.0f,       -0.5f,      0.25f,     3.0f,    0.0f, -0.0f,
                      1.0f / 128, 1.5f,       0.75f,     -3.0f,   2.0f, 0.1f,
                      -0.1f,      1.0f / 256, 1.0f / 64, 3.96875f};
  uint8_t exponent, datums[16];
  packBfpGroup(values, /*bfp4=*/false, &exponent, datums);
  EXPECT_EQ(exponent, 128); // 3.96875 = 1.984375 * 2
  std::vector<float> back(16);
  for (int i = 0; i < 16; ++i)
    back[i] = fromBf16(bfp8ToBf16(datums[i], exponent));
  // Steps of 2 / 64 = 1/32 at this exponent.
  EXPECT_EQ(back[0], 1.0f);
  EXPECT_EQ(back[1], -0.5f);
  EXPECT_EQ(back[3], 3.0f);
  EXPECT_EQ(back[4], 0.0f);
  EXPECT_EQ(datums[5], 0);  // -0 is stored as +0, not -2^128
  EXPECT_EQ(back[6], 0.0f); // 1/128 is a quarter step: rounds to 0, +0
  EXPECT_EQ(datums[6], 0);
  EXPECT_EQ(back[13], 0.0f);
  EXPECT_EQ(back[14], 1.0f / 32); // 1/64 is half a step: away from zero
  EXPECT_EQ(back[15], 3.96875f);
  // 0.1 (bf16 0.10009765625) is 3.2 steps: 3 steps.
  EXPECT_EQ(back[11], 3.0f / 32);
  EXPECT_EQ(back[12], -3.0f / 32);

  // BFP4 keeps the top 3 magnitude bits (truncation): steps of 2 / 4.
  uint8_t nibbles[8];
  packBfpGroup(values, /*bfp4=*/true, &exponent, nibbles);
  auto bfp4 = [&](int i) {
    uint8_t nibble = (nibbles[i / 2] >> (i % 2 ? 4 : 0)) & 0xf;
    return fromBf16(bfp8ToBf16(uint8_t(nibble << 4), exponent));
  };
  EXPECT_EQ(bfp4(0), 1.0f);
  EXPECT_EQ(bfp4(3), 3.0f);
  EXPECT_EQ(bfp4(8), 0.5f); // 0.75 = 24 steps of 1/32 -> 1 step of 1/2
  EXPECT_EQ(bfp4(9), -3.0f);
  EXPECT_EQ(bfp4(15), 3.5f); // 127 >> 4 = 7 -> 7 / 4 * 2
}

TEST(Bfp, TilesRoundTripThroughTheirStoredLayout) {
  // A stored bfp8 tile: 64 exponent bytes, then 1024 elements; bfp4 packs
  // two elements a byte. Values exactly representable survive both ways.
  TileGeometry g(32, 32, 16, 16);
  EXPECT_EQ(g.exponentBytes(), 64);
  std::vector<float> in(1024), out(1024);
  for (int i = 0; i < 1024; ++i)
    in[i] =
        float((i * 37) % 15 - 7) / 4.0f; // multiples of 1/4 in [-1.75, 1.75]
  std::vector<uint8_t> stored(64 + 1024);
  g.pack(in.data(), TileFormat::BFP8, stored.data());
  g.unpack(stored.data(), TileFormat::BFP8, out.data());
  EXPECT_EQ(in, out);
  // BFP4 keeps 3 bits below the group's exponent: quarters need a group
  // maximum below 2, which every group here has.
  std::vector<uint8_t> stored4(64 + 512);
  g.pack(in.data(), TileFormat::BFP4, stored4.data());
  g.unpack(stored4.data(), TileFormat::BFP4, out.data());
  EXPECT_EQ(in, out);
}
