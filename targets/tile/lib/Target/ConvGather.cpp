//===- ConvGather.cpp - A convolution's A tiles, gathered from NHWC -------===//
//
// The implicit GEMM of a convolution reads A tile (i, kk) as 32 output
// pixels (A's rows) times the 32 channels of block kk mod (C / 32) of
// filter tap kk div (C / 32). Output pixel m is (image, oh, ow); it reads
// input pixel (image, oh * stride + kh * dilation, ow * stride + kw *
// dilation), whose 32 channels are one row of a tile of the input declared
// as [pixels, channels]. Tiles are stored face by face, so a row is one
// contiguous run per face column in the input's page and in the A tile.
// With unit stride consecutive pixels of an output row read consecutive
// input pixels, so rows are read in runs (one tile.noc_read_bytes per run
// and face column) that end where a face of either tile or the output row
// ends; other strides read row by row. A pixel in the padding (a
// `tensor.pad` before the convolution, ConvPadding.cpp) copies the pad's
// value from the compute kernel's padding tile in the core's own L1. Rows past
// the last output pixel are left as they are (their products land in output
// rows the runtime crops).
//
// Channels that are not whole tiles (an RGB input's 3): K index q of a
// tile row is channel q mod C of tap q div C, so a row of an A tile holds
// runs of several taps' channels. Each row is then read in pieces of
// gcd(C, face columns) values, which never cross a tap's channels or a
// face in either tile; pieces past the last tap copy the padding tile (B's
// padding rows are zero, and a finite value times zero is zero, which a
// stale NaN in L1 would not be).
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

#include <numeric>

using namespace strata::tile;

namespace {
/// The input pixel output pixel `m` reads at filter tap (`kh`, `kw`),
/// counted from the padding's first row and column, and whether it lies in
/// the input (true when there is no padding).
struct TapPixel {
  std::string ih, iw, inside, image;
};
TapPixel tapPixel(KernelText &k, const ConvGather &g, const std::string &m,
                  const std::string &kh, const std::string &kw,
                  std::string *ow = nullptr) {
  int64_t perImage = g.outHeight * g.outWidth;
  TapPixel t;
  t.image = k.arith("divui", m, k.c(perImage));
  std::string inImage = k.arith("remui", m, k.c(perImage));
  std::string oh = k.arith("divui", inImage, k.c(g.outWidth));
  std::string w = k.arith("remui", inImage, k.c(g.outWidth));
  if (ow)
    *ow = w;
  t.ih = k.arith("subi",
                 k.add(k.mul(oh, k.c(g.strideH)), k.mul(kh, k.c(g.dilationH))),
                 k.c(g.padTop));
  t.iw = k.arith("subi",
                 k.add(k.mul(w, k.c(g.strideW)), k.mul(kw, k.c(g.dilationW))),
                 k.c(g.padLeft));
  // Padding after the input only (high) puts pixels past its last row or
  // column as surely as padding before it: both are checked.
  if (g.padded) {
    auto within = [&](const std::string &v, int64_t size) {
      return k.value(llvm::formatv("arith.andi {0}, {1} : i1",
                                   k.cmp("sge", v, k.c(0)),
                                   k.cmp("slt", v, k.c(size))));
    };
    t.inside =
        k.value(llvm::formatv("arith.andi {0}, {1} : i1",
                              within(t.ih, g.height), within(t.iw, g.width)));
  }
  return t;
}

/// Bytes from a tile's start to row `row` of its first face column.
std::string rowOffset(KernelText &k, const ConvGather &g, int64_t facesPerRow,
                      int64_t elem, const std::string &row) {
  int64_t faceBytes = g.faceRows * g.faceCols * elem;
  std::string faceRow = k.arith("divui", row, k.c(g.faceRows));
  std::string within = k.arith("remui", row, k.c(g.faceRows));
  return k.add(k.mul(faceRow, k.c(facesPerRow * faceBytes)),
               k.mul(within, k.c(g.faceCols * elem)));
}

/// Channels that are not whole tiles: each row in pieces (above).
void gatherRaggedTiles(KernelText &k, const MatmulPlan &p,
                       const std::string &slotOf, const std::string &kk,
                       const std::string &first, const std::string &row,
                       const std::string &col, const std::string &zero) {
  const ConvGather &g = *p.conv;
  int64_t elem = p.a.type == "bf16" ? 2 : 4;
  int64_t faceBytes = g.faceRows * g.faceCols * elem;
  int64_t facesPerRow = p.tileCols / g.faceCols;
  int64_t channelTiles = (g.channels + p.tileCols - 1) / p.tileCols;
  int64_t piece = std::gcd(g.channels, std::gcd(g.faceCols, p.tileCols));
  std::string r = k.beginFor(p.tileRows);
  std::string m = k.add(first, r);
  k.beginIf(k.cmp("ult", m, k.c(g.pixels)));
  std::string to = k.add(slotOf, rowOffset(k, g, facesPerRow, elem, r));
  std::string t = k.beginFor(p.tileCols / piece);
  std::string column = k.mul(t, k.c(piece));
  std::string q = k.add(k.mul(kk, k.c(p.tileCols)), column);
  std::string tap = k.arith("divui", q, k.c(g.channels));
  std::string channel = k.arith("remui", q, k.c(g.channels));
  TapPixel px = tapPixel(k, g, m, k.arith("divui", tap, k.c(g.kernelWidth)),
                         k.arith("remui", tap, k.c(g.kernelWidth)));
  std::string valid = k.cmp("ult", tap, k.c(g.taps));
  if (!px.inside.empty())
    valid =
        k.value(llvm::formatv("arith.andi {0}, {1} : i1", valid, px.inside));
  auto inTile = [&](const std::string &c) {
    return k.add(k.mul(k.arith("divui", c, k.c(g.faceCols)), k.c(faceBytes)),
                 k.mul(k.arith("remui", c, k.c(g.faceCols)), k.c(elem)));
  };
  std::string dst = k.add(to, inTile(column));
  k.beginIf(valid);
  std::string pixel = k.add(
      k.mul(k.add(k.mul(px.image, k.c(g.height)), px.ih), k.c(g.width)), px.iw);
  std::string page =
      k.add(k.mul(k.arith("divui", pixel, k.c(p.tileRows)), k.c(channelTiles)),
            k.arith("divui", channel, k.c(p.tileCols)));
  std::string from = k.add(rowOffset(k, g, facesPerRow, elem,
                                     k.arith("remui", pixel, k.c(p.tileRows))),
                           inTile(k.arith("remui", channel, k.c(p.tileCols))));
  k.line(llvm::formatv("tile.noc_read_bytes @{0}[{1}] offset {2} size {3} -> "
                       "{4}",
                       p.a.name, page, from, k.c(piece * elem), dst));
  k.orElse();
  k.line(llvm::formatv("tile.noc_read_l1 core [{0}, {1}] {2} -> {3} size {4}",
                       row, col, zero, dst, k.c(piece * elem)));
  k.end();
  k.end();
  k.end();
  k.end();
}
} // namespace

void strata::tile::gatherConvTiles(KernelText &k, const MatmulPlan &p,
                                   const std::string &ptr,
                                   const std::string &row0,
                                   const std::string &col0, int64_t rows,
                                   int64_t cols, const std::string &row,
                                   const std::string &col,
                                   const std::string &zero) {
  const ConvGather &g = *p.conv;
  int64_t elem = p.a.type == "bf16" ? 2 : 4;
  int64_t tileBytes = p.tileRows * p.tileCols * elem;
  int64_t faceBytes = g.faceRows * g.faceCols * elem;
  int64_t facesPerRow = p.tileCols / g.faceCols;
  int64_t channelTiles = g.channels / p.tileCols;
  std::string i = k.beginFor(rows);
  std::string j = k.beginFor(cols);
  std::string kk = k.add(col0, j);
  std::string slot =
      k.add(ptr, k.mul(k.add(k.mul(i, k.c(cols)), j), k.c(tileBytes)));
  std::string first = k.mul(k.add(row0, i), k.c(p.tileRows));
  if (g.channels % p.tileCols != 0) {
    gatherRaggedTiles(k, p, slot, kk, first, row, col, zero);
    k.end();
    k.end();
    return;
  }
  // The tap and channel block of K tile col0 + j.
  std::string tap = k.arith("divui", kk, k.c(channelTiles));
  std::string block = k.arith("remui", kk, k.c(channelTiles));
  std::string kh = k.arith("divui", tap, k.c(g.kernelWidth));
  std::string kw = k.arith("remui", tap, k.c(g.kernelWidth));
  std::string r = k.beginFor(p.tileRows);
  std::string m = k.add(first, r);
  k.beginIf(k.cmp("ult", m, k.c(g.pixels)));
  std::string ow;
  TapPixel px = tapPixel(k, g, m, kh, kw, &ow);
  std::string image = px.image, ih = px.ih, iw = px.iw;
  // Where a tile row starts: the face row of its face, in both tiles.
  auto rowOffsetOf = [&](const std::string &row) {
    return rowOffset(k, g, facesPerRow, elem, row);
  };
  std::string to = k.add(slot, rowOffsetOf(r));
  bool padded = !px.inside.empty();
  if (padded)
    k.beginIf(px.inside);
  std::string pixel =
      k.add(k.mul(k.add(k.mul(image, k.c(g.height)), ih), k.c(g.width)), iw);
  std::string page =
      k.add(k.mul(k.arith("divui", pixel, k.c(p.tileRows)), k.c(channelTiles)),
            block);
  std::string inRow = k.arith("remui", pixel, k.c(p.tileRows));
  std::string from = rowOffsetOf(inRow);
  std::string rows1 = k.c(1);
  if (g.strideW == 1) {
    // With unit stride the next output pixel of the row reads the next
    // input pixel: a run of rows is contiguous in both tiles until a face
    // ends in either or the output row ends. The run's first row reads it.
    auto isZero = [&](const std::string &v, int64_t mod) {
      return k.cmp("eq", k.arith("remui", v, k.c(mod)), k.c(0));
    };
    std::string start =
        k.value(llvm::formatv("arith.ori {0}, {1} : i1", isZero(r, g.faceRows),
                              isZero(pixel, g.faceRows)));
    start = k.value(llvm::formatv("arith.ori {0}, {1} : i1", start,
                                  k.cmp("eq", ow, k.c(0))));
    if (padded) // the first pixel right of the left padding
      start = k.value(llvm::formatv("arith.ori {0}, {1} : i1", start,
                                    k.cmp("eq", iw, k.c(0))));
    k.beginIf(start);
    auto left = [&](const std::string &v, int64_t mod) {
      return k.arith("subi", k.c(mod), k.arith("remui", v, k.c(mod)));
    };
    rows1 = k.arith("minui", left(r, g.faceRows), left(inRow, g.faceRows));
    rows1 = k.arith("minui", rows1, k.arith("subi", k.c(g.outWidth), ow));
    rows1 = k.arith("minui", rows1, k.arith("subi", k.c(g.pixels), m));
    if (padded) // up to the right padding
      rows1 = k.arith("minui", rows1, k.arith("subi", k.c(g.width), iw));
  }
  std::string size = k.mul(rows1, k.c(g.faceCols * elem));
  for (int64_t f = 0; f < facesPerRow; ++f)
    k.line(llvm::formatv(
        "tile.noc_read_bytes @{0}[{1}] offset {2} size {3} -> {4}", p.a.name,
        page, f ? k.add(from, k.c(f * faceBytes)) : from, size,
        f ? k.add(to, k.c(f * faceBytes)) : to));
  if (g.strideW == 1)
    k.end();
  if (padded) {
    // A pixel of the padding: the row's face columns from the padding tile.
    k.orElse();
    for (int64_t f = 0; f < facesPerRow; ++f)
      k.line(
          llvm::formatv("tile.noc_read_l1 core [{0}, {1}] {2} -> {3} size {4}",
                        row, col, zero, f ? k.add(to, k.c(f * faceBytes)) : to,
                        k.c(g.faceCols * elem)));
    k.end();
  }
  k.end();
  k.end();
  k.end();
  k.end();
}
