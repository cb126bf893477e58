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
// ends; other strides read row by row. A pixel in the zero padding (a
// `tensor.pad` before the convolution, ConvPadding.cpp) copies zeros from
// the compute kernel's zero tile in the core's own L1. Rows past the last
// output pixel are left as they are (their products land in output rows
// the runtime crops).
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

using namespace strata::tile;

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
  // The tap and channel block of K tile col0 + j.
  std::string kk = k.add(col0, j);
  std::string tap = k.arith("divui", kk, k.c(channelTiles));
  std::string block = k.arith("remui", kk, k.c(channelTiles));
  std::string kh = k.arith("divui", tap, k.c(g.kernelWidth));
  std::string kw = k.arith("remui", tap, k.c(g.kernelWidth));
  std::string slot =
      k.add(ptr, k.mul(k.add(k.mul(i, k.c(cols)), j), k.c(tileBytes)));
  std::string first = k.mul(k.add(row0, i), k.c(p.tileRows));
  std::string r = k.beginFor(p.tileRows);
  std::string m = k.add(first, r);
  k.beginIf(k.cmp("ult", m, k.c(g.pixels)));
  int64_t perImage = g.outHeight * g.outWidth;
  std::string image = k.arith("divui", m, k.c(perImage));
  std::string inImage = k.arith("remui", m, k.c(perImage));
  std::string oh = k.arith("divui", inImage, k.c(g.outWidth));
  std::string ow = k.arith("remui", inImage, k.c(g.outWidth));
  // Where a tile row starts: the face row of its face, in both tiles.
  auto rowOffset = [&](const std::string &row) {
    std::string faceRow = k.arith("divui", row, k.c(g.faceRows));
    std::string within = k.arith("remui", row, k.c(g.faceRows));
    return k.add(k.mul(faceRow, k.c(facesPerRow * faceBytes)),
                 k.mul(within, k.c(g.faceCols * elem)));
  };
  std::string to = k.add(slot, rowOffset(r));
  // The input pixel, counted from the padding's first row and column.
  std::string ih = k.arith(
      "subi", k.add(k.mul(oh, k.c(g.strideH)), k.mul(kh, k.c(g.dilationH))),
      k.c(g.padTop));
  std::string iw = k.arith(
      "subi", k.add(k.mul(ow, k.c(g.strideW)), k.mul(kw, k.c(g.dilationW))),
      k.c(g.padLeft));
  bool padded = g.padTop > 0 || g.padLeft > 0;
  if (padded) {
    auto within = [&](const std::string &v, int64_t size) {
      return k.value(llvm::formatv("arith.andi {0}, {1} : i1",
                                   k.cmp("sge", v, k.c(0)),
                                   k.cmp("slt", v, k.c(size))));
    };
    k.beginIf(
        k.value(llvm::formatv("arith.andi {0}, {1} : i1", within(ih, g.height),
                              within(iw, g.width))));
  }
  std::string pixel =
      k.add(k.mul(k.add(k.mul(image, k.c(g.height)), ih), k.c(g.width)), iw);
  std::string page =
      k.add(k.mul(k.arith("divui", pixel, k.c(p.tileRows)), k.c(channelTiles)),
            block);
  std::string inRow = k.arith("remui", pixel, k.c(p.tileRows));
  std::string from = rowOffset(inRow);
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
    // A pixel of the padding: the row's face columns from the zero tile.
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
