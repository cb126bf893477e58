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

void strata::tile::eltwiseUnary(VectorOp op, float *x, int64_t count) {
  switch (op) {
  case VectorOp::Exp:
    for (int64_t i = 0; i < count; ++i)
      x[i] = std::exp(x[i]);
    return;
  case VectorOp::Recip:
    for (int64_t i = 0; i < count; ++i)
      x[i] = 1.0f / x[i];
    return;
  case VectorOp::Gelu: {
    const float k = std::sqrt(2.0f / float(M_PI));
    for (int64_t i = 0; i < count; ++i) {
      float v = x[i];
      x[i] = 0.5f * v * (1.0f + std::tanh(k * (v + 0.044715f * v * v * v)));
    }
    return;
  }
  case VectorOp::Relu:
    for (int64_t i = 0; i < count; ++i)
      x[i] = x[i] > 0.0f ? x[i] : (std::isnan(x[i]) ? x[i] : 0.0f);
    return;
  case VectorOp::Sqrt:
    for (int64_t i = 0; i < count; ++i)
      x[i] = std::sqrt(x[i]);
    return;
  case VectorOp::Rsqrt:
    for (int64_t i = 0; i < count; ++i)
      x[i] = 1.0f / std::sqrt(x[i]);
    return;
  case VectorOp::Neg:
    for (int64_t i = 0; i < count; ++i)
      x[i] = -x[i];
    return;
  case VectorOp::Abs:
    for (int64_t i = 0; i < count; ++i)
      x[i] = std::fabs(x[i]);
    return;
  case VectorOp::Tanh:
    for (int64_t i = 0; i < count; ++i)
      x[i] = std::tanh(x[i]);
    return;
  default:
    return;
  }
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
