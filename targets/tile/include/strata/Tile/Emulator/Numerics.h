//===- Numerics.h - Tile formats and arithmetic ----------------*- C++ -*-===//
//
// What the engines compute, on whole tiles, as tight loops:
// - bf16 is the upper half of an f32; converting f32 to bf16 rounds to the
//   nearest even (NaN stays NaN), bf16 to f32 is exact;
// - a stored tile (L1, DRAM page) is its faces in row-major order, each face
//   row-major; engines see a tile as a row-major array of f32 (unpacking
//   reorders and widens, packing reorders and rounds);
// - the matrix engine multiplies with f32 products and sums (products of
//   bf16 are exact in f32), summing k in increasing order;
// - the vector engine computes each element in f32 with the C++ library's
//   functions (gelu in its tanh form).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_EMULATOR_NUMERICS_H
#define STRATA_TILE_EMULATOR_NUMERICS_H

#include "strata/Tile/Trace.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace strata::tile {

/// f32 -> bf16, round to nearest even.
inline uint16_t toBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // NaN: keep it a (quiet) NaN
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

inline float fromBf16(uint16_t half) {
  uint32_t bits = uint32_t(half) << 16;
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

inline float roundToBf16(float value) { return fromBf16(toBf16(value)); }

/// The element formats tiles are stored in. BFP8 and BFP4 are block floats
/// (tt-isa-documentation FloatBitPatterns.md "BFP"): each group of 16
/// stored elements shares an 8-bit exponent, each element is a sign and a
/// 7- (3-) bit magnitude without hidden one; value = sign * mag / 2^6 (2^2)
/// * 2^(exp - 127). A stored tile is the exponents (one byte per group, the
/// section padded to 16 bytes), then the elements (BFP4: two per byte, the
/// first in the low nibble).
enum class TileFormat : uint8_t { BF16, F32, BFP8, BFP4 };

/// Bytes of a block-float tile's exponent section: one per 16 elements,
/// padded to 16 bytes.
inline int64_t blockFloatExponentBytes(int64_t elements) {
  return (elements / 16 + 15) / 16 * 16;
}

inline bool isBlockFloat(TileFormat format) {
  return format == TileFormat::BFP8 || format == TileFormat::BFP4;
}

/// Mantissa (magnitude) bits a format keeps: the check's precision.
inline int64_t formatMantissaBits(TileFormat format) {
  switch (format) {
  case TileFormat::F32:
    return 23;
  case TileFormat::BF16:
    return 7;
  case TileFormat::BFP8:
    return 6; // 7 bits of magnitude, no hidden one: 6 below the leading bit
  case TileFormat::BFP4:
    return 2;
  }
  return 23;
}

inline const char *formatName(TileFormat format) {
  switch (format) {
  case TileFormat::BF16:
    return "bf16";
  case TileFormat::F32:
    return "f32";
  case TileFormat::BFP8:
    return "bfp8";
  case TileFormat::BFP4:
    return "bfp4";
  }
  return "f32";
}

/// BFP8 element (sign, 7-bit magnitude) and shared exponent -> bf16 bits,
/// as the unpackers convert (FloatBitPatterns.md, "Conversion routines"):
/// magnitude 0 is +0, or -2^128 (bf16 -infinity) with the sign set.
uint16_t bfp8ToBf16(uint8_t datum, uint8_t exponent);

/// Packs 16 values into BFP8: each is first truncated to bf16, the shared
/// exponent is the largest bf16 exponent, magnitudes are rounded to nearest
/// with ties away from zero (the packers' deterministic rounding) and
/// saturate at 127; zero and values rounding to zero are +0. BFP4 keeps the
/// top 3 magnitude bits of the BFP8 element (truncation).
void packBfpGroup(const float *values, bool bfp4, uint8_t *exponent,
                  uint8_t *datums);

/// Where each element of a row-major tile is stored in face layout.
class TileGeometry {
public:
  TileGeometry(int64_t rows, int64_t cols, int64_t faceRows, int64_t faceCols);
  int64_t rows() const { return numRows; }
  int64_t cols() const { return numCols; }
  int64_t faceRows() const { return numFaceRows; }
  int64_t faceCols() const { return numFaceCols; }
  int64_t elements() const { return numRows * numCols; }
  /// Position in storage of row-major element i.
  int64_t storedIndex(int64_t i) const { return stored[i]; }
  /// Bytes of a block-float tile's exponent section.
  int64_t exponentBytes() const { return blockFloatExponentBytes(elements()); }

  /// Stored tile bytes -> row-major f32.
  void unpack(const uint8_t *storedTile, TileFormat format, float *out) const;
  /// Row-major f32 -> stored tile bytes (bf16: round to nearest even).
  void pack(const float *in, TileFormat format, uint8_t *storedTile) const;

private:
  int64_t numRows, numCols, numFaceRows, numFaceCols;
  std::vector<int32_t> stored;
};

/// c[m x n] += a[m x k] * b[k x n], row-major.
void matmulAccumulate(const float *a, const float *b, float *c, int64_t m,
                      int64_t k, int64_t n);

/// How the second operand of an elementwise op is broadcast.
enum class BroadcastKind : uint8_t { None, Col, Row, Scalar };

/// out = a op b (op: Add, Sub, Mul, Max or Min), b broadcast as given.
void eltwiseBinary(VectorOp op, const float *a, const float *b, float *out,
                   int64_t rows, int64_t cols, BroadcastKind broadcast);

/// Fills a row-major tile from its column 0 (Col), row 0 (Row) or element
/// (0, 0) (Scalar); None leaves it.
void broadcastTile(float *x, int64_t rows, int64_t cols,
                   BroadcastKind broadcast);

/// x = f(x) for a unary VectorOp.
void eltwiseUnary(VectorOp op, float *x, int64_t count);

/// x = x op scalar (Add, Sub, Rsub: scalar - x, Mul, Max, Min).
void eltwiseScalar(VectorOp op, float *x, int64_t count, float scalar);

/// Accumulates a row (`rows` = true: each row into column 0) or column
/// reduction of `a` into `acc` (sum adds, max keeps the maximum).
void reduceAccumulate(bool max, bool rows, const float *a, float *acc,
                      int64_t numRows, int64_t numCols);

/// Keeps `bits` explicit mantissa bits of every element, dropping the rest
/// toward zero: what the matrix engine's source registers hold of an f32
/// operand (TF32: 10 bits). NaN stays NaN.
void truncateMantissa(float *x, int64_t count, int64_t bits);

/// Rounds every element to bf16 precision (a bf16 accumulator).
void roundTileToBf16(float *x, int64_t count);

} // namespace strata::tile

#endif // STRATA_TILE_EMULATOR_NUMERICS_H
