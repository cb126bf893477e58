//===- Numerics.cpp - Tile formats and tile arithmetic of the emulator ----===//
#include "strata/Tile/Emulator/Numerics.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace strata::tile;

TileGeometry::TileGeometry(int64_t rows, int64_t cols, int64_t faceRows,
                           int64_t faceCols)
    : numRows(rows), numCols(cols), numFaceRows(faceRows),
      numFaceCols(faceCols), stored(rows * cols) {
  int64_t facesPerRow = cols / faceCols;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t face = (r / faceRows) * facesPerRow + c / faceCols;
      int64_t inFace = (r % faceRows) * faceCols + c % faceCols;
      stored[r * cols + c] = int32_t(face * faceRows * faceCols + inFace);
    }
}

uint16_t strata::tile::bfp8ToBf16(uint8_t datum, uint8_t exponent) {
  uint8_t sign = datum >> 7;
  uint8_t mag = uint8_t(datum << 1);
  if (mag == 0)
    return sign ? 0xff80 : 0;
  int leading = 0;
  while (!(mag & 0x80)) {
    mag = uint8_t(mag << 1);
    ++leading;
  }
  uint8_t exp = uint8_t(exponent - leading);
  return uint16_t((sign << 15) | (exp << 7) | (mag & 0x7e));
}

void strata::tile::packBfpGroup(const float *values, bool bfp4,
                                uint8_t *exponent, uint8_t *datums) {
  // Truncated to bf16 first (the late format conversion), then rounded to a
  // magnitude of 7 bits relative to the group's largest exponent.
  uint16_t bits[16];
  int shared = 0;
  for (int i = 0; i < 16; ++i) {
    uint32_t word;
    std::memcpy(&word, &values[i], 4);
    bits[i] = uint16_t(word >> 16);
    int exp = (bits[i] >> 7) & 0xff;
    if (exp != 0) // zeros and (flushed) denormals do not set the exponent
      shared = std::max(shared, exp);
  }
  *exponent = uint8_t(shared);
  for (int i = 0; i < 16; ++i) {
    int exp = (bits[i] >> 7) & 0xff;
    uint8_t sign = bits[i] >> 15;
    uint32_t mag = 0;
    if (exp != 0) {
      // 8 significant bits 1.mmmmmmm scaled to mag / 2^6 * 2^(shared-127):
      // shift right by (shared - exp) + 1, rounding half away from zero.
      uint32_t significand = 0x80u | (bits[i] & 0x7fu);
      int shift = shared - exp + 1;
      if (shift < 32) {
        mag = significand >> shift;
        if (shift > 0 && (significand >> (shift - 1)) & 1u)
          ++mag;
      }
      mag = std::min<uint32_t>(mag, 127);
    }
    if (mag == 0)
      sign = 0; // sign with magnitude 0 would mean -2^128
    uint8_t datum = uint8_t((sign << 7) | mag);
    if (bfp4) {
      uint8_t nibble = uint8_t((sign << 3) | (mag >> 4));
      if ((nibble & 0x7) == 0)
        nibble = 0;
      if (i % 2 == 0)
        datums[i / 2] = nibble;
      else
        datums[i / 2] = uint8_t(datums[i / 2] | (nibble << 4));
    } else {
      datums[i] = datum;
    }
  }
}

void TileGeometry::unpack(const uint8_t *storedTile, TileFormat format,
                          float *out) const {
  int64_t n = elements();
  if (format == TileFormat::BF16) {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t half;
      std::memcpy(&half, storedTile + 2 * stored[i], 2);
      out[i] = fromBf16(half);
    }
    return;
  }
  if (isBlockFloat(format)) {
    const uint8_t *datums = storedTile + exponentBytes();
    for (int64_t i = 0; i < n; ++i) {
      int64_t at = stored[i];
      uint8_t datum;
      if (format == TileFormat::BFP8) {
        datum = datums[at];
      } else {
        uint8_t nibble = (datums[at / 2] >> (at % 2 ? 4 : 0)) & 0xf;
        datum = uint8_t(nibble << 4); // BFP4ToBF16: BFP8ToBF16(bits << 4)
      }
      out[i] = fromBf16(bfp8ToBf16(datum, storedTile[at / 16]));
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(&out[i], storedTile + 4 * stored[i], 4);
}

void TileGeometry::pack(const float *in, TileFormat format,
                        uint8_t *storedTile) const {
  int64_t n = elements();
  if (format == TileFormat::BF16) {
    for (int64_t i = 0; i < n; ++i) {
      uint16_t half = toBf16(in[i]);
      std::memcpy(storedTile + 2 * stored[i], &half, 2);
    }
    return;
  }
  if (isBlockFloat(format)) {
    // Groups are 16 consecutive stored elements (a face row).
    std::vector<float> inStoredOrder(n);
    for (int64_t i = 0; i < n; ++i)
      inStoredOrder[stored[i]] = in[i];
    std::memset(storedTile, 0, exponentBytes());
    uint8_t *datums = storedTile + exponentBytes();
    bool bfp4 = format == TileFormat::BFP4;
    for (int64_t g = 0; g < n / 16; ++g)
      packBfpGroup(&inStoredOrder[g * 16], bfp4, &storedTile[g],
                   datums + (bfp4 ? g * 8 : g * 16));
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(storedTile + 4 * stored[i], &in[i], 4);
}

/// The 32x32x32 case with compile-time bounds, which the compiler unrolls
/// and vectorizes.
static void matmul32(const float *__restrict a, const float *__restrict b,
                     float *__restrict c) {
  for (int i = 0; i < 32; ++i) {
    float row[32];
    for (int j = 0; j < 32; ++j)
      row[j] = c[i * 32 + j];
    for (int k = 0; k < 32; ++k) {
      float aik = a[i * 32 + k];
      const float *bk = b + k * 32;
      for (int j = 0; j < 32; ++j)
        row[j] += aik * bk[j];
    }
    for (int j = 0; j < 32; ++j)
      c[i * 32 + j] = row[j];
  }
}

void strata::tile::matmulAccumulate(const float *a, const float *b, float *c,
                                    int64_t m, int64_t k, int64_t n) {
  if (m == 32 && k == 32 && n == 32)
    return matmul32(a, b, c);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      float aip = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += aip * b[p * n + j];
    }
}

/// One elementwise binary operation.
static inline float apply(VectorOp op, float x, float y) {
  switch (op) {
  case VectorOp::Add:
    return x + y;
  case VectorOp::Sub:
    return x - y;
  case VectorOp::Mul:
    return x * y;
  case VectorOp::Max:
    return std::isnan(x) || std::isnan(y)
               ? std::numeric_limits<float>::quiet_NaN()
               : std::max(x, y);
  case VectorOp::Min:
    return std::isnan(x) || std::isnan(y)
               ? std::numeric_limits<float>::quiet_NaN()
               : std::min(x, y);
  case VectorOp::Rsub:
    return y - x;
  case VectorOp::Eq:
    return x == y ? 1.0f : 0.0f;
  case VectorOp::Ne:
    return x != y ? 1.0f : 0.0f;
  case VectorOp::Lt:
    return x < y ? 1.0f : 0.0f;
  case VectorOp::Le:
    return x <= y ? 1.0f : 0.0f;
  case VectorOp::Gt:
    return x > y ? 1.0f : 0.0f;
  case VectorOp::Ge:
    return x >= y ? 1.0f : 0.0f;
  case VectorOp::Fill:
    return y;
  default:
    return std::numeric_limits<float>::quiet_NaN();
  }
}

void strata::tile::eltwiseBinary(VectorOp op, const float *a, const float *b,
                                 float *out, int64_t rows, int64_t cols,
                                 BroadcastKind broadcast) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float y;
      switch (broadcast) {
      case BroadcastKind::None:
        y = b[r * cols + c];
        break;
      case BroadcastKind::Col:
        y = b[r * cols];
        break;
      case BroadcastKind::Row:
        y = b[c];
        break;
      case BroadcastKind::Scalar:
        y = b[0];
        break;
      }
      out[r * cols + c] = apply(op, a[r * cols + c], y);
    }
}

namespace {
/// One element of a unary vector-engine op (RoundBf16 and the binary ops
/// excepted: the first rounds the tile as a whole, the others take two
/// operands).
float unary(VectorOp op, float v) {
  switch (op) {
  case VectorOp::Exp:
    return std::exp(v);
  case VectorOp::Recip:
    return 1.0f / v;
  case VectorOp::Gelu: {
    const float k = std::sqrt(2.0f / float(M_PI));
    return 0.5f * v * (1.0f + std::tanh(k * (v + 0.044715f * v * v * v)));
  }
  case VectorOp::Relu:
    return v > 0.0f ? v : (std::isnan(v) ? v : 0.0f);
  case VectorOp::Sqrt:
    return std::sqrt(v);
  case VectorOp::Rsqrt:
    return 1.0f / std::sqrt(v);
  case VectorOp::Neg:
    return -v;
  case VectorOp::Abs:
    return std::fabs(v);
  case VectorOp::Log:
    return std::log(v);
  case VectorOp::Sin:
    return std::sin(v);
  case VectorOp::Cos:
    return std::cos(v);
  case VectorOp::Erf:
    return std::erf(v);
  case VectorOp::Tanh:
    return std::tanh(v);
  default:
    return v;
  }
}
} // namespace

void strata::tile::eltwiseUnary(VectorOp op, float *x, int64_t count) {
  if (op == VectorOp::RoundBf16) {
    roundTileToBf16(x, count);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    x[i] = unary(op, x[i]);
}

void strata::tile::reduceAccumulate(bool max, bool rows, const float *a,
                                    float *acc, int64_t numRows,
                                    int64_t numCols) {
  if (rows) {
    for (int64_t r = 0; r < numRows; ++r) {
      float v = acc[r * numCols];
      for (int64_t c = 0; c < numCols; ++c)
        v = max ? apply(VectorOp::Max, v, a[r * numCols + c])
                : v + a[r * numCols + c];
      acc[r * numCols] = v;
    }
    return;
  }
  for (int64_t c = 0; c < numCols; ++c) {
    float v = acc[c];
    for (int64_t r = 0; r < numRows; ++r)
      v = max ? apply(VectorOp::Max, v, a[r * numCols + c])
              : v + a[r * numCols + c];
    acc[c] = v;
  }
}

void strata::tile::roundTileToBf16(float *x, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    x[i] = roundToBf16(x[i]);
}

void strata::tile::truncateMantissa(float *x, int64_t count, int64_t bits) {
  if (bits <= 0 || bits >= 23)
    return;
  uint32_t keep = ~((uint32_t(1) << (23 - bits)) - 1);
  for (int64_t i = 0; i < count; ++i) {
    uint32_t word;
    std::memcpy(&word, &x[i], 4);
    if ((word & 0x7fffffffu) > 0x7f800000u) // NaN: its payload may be low bits
      continue;
    word &= keep;
    std::memcpy(&x[i], &word, 4);
  }
}

void strata::tile::eltwiseScalar(VectorOp op, float *x, int64_t count,
                                 float scalar) {
  for (int64_t i = 0; i < count; ++i)
    x[i] = apply(op, x[i], scalar);
}

void strata::tile::broadcastTile(float *x, int64_t rows, int64_t cols,
                                 BroadcastKind broadcast) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      switch (broadcast) {
      case BroadcastKind::None:
        return;
      case BroadcastKind::Col:
        x[r * cols + c] = x[r * cols];
        break;
      case BroadcastKind::Row:
        x[r * cols + c] = x[c];
        break;
      case BroadcastKind::Scalar:
        x[r * cols + c] = x[0];
        break;
      }
}
