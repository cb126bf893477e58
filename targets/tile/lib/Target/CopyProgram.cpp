//===- CopyProgram.cpp - A copy between strided views of DRAM tensors -----===//
//
// The view's rows (all dimensions but the last) are cut into chunks of at
// most one tile's elements (finer when there are fewer rows than cores);
// chunk t goes to core t mod (rows x cols),
// numbered row-major. One data-movement kernel per core gathers a chunk's
// elements from the source tensor into a staging slot in L1 (consecutive,
// in view order) and scatters them from there to the destination, so
// that neither side's tile layout constrains the other's. A side whose
// view rows are runs of one tensor row moves a face row (or the part of
// one the run covers) per NoC transfer; any other side moves element by
// element. Two staging slots alternate: a chunk's reads overlap the
// previous chunk's writes. Only the view's elements are written: whatever
// else the destination holds (a pad's fill, from the program before)
// stays.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

#include <algorithm>

using namespace strata::tile;

namespace {
/// The page of `side`'s tensor holding host element `linear` and the byte
/// offset of that element in the page (tiles stored face by face).
std::pair<std::string, std::string> locate(KernelText &k, const CopyPlan &p,
                                           const CopyPlan::Side &side,
                                           const std::string &linear) {
  int64_t elem = p.elementBytes;
  int64_t faceBytes = p.faceRows * p.faceCols * elem;
  std::string row = k.arith("divui", linear, k.c(side.last));
  std::string col = k.arith("remui", linear, k.c(side.last));
  std::string page = k.add(k.mul(k.arith("divui", row, k.c(p.tileRows)),
                                 k.c(side.tensor.cols / p.tileCols)),
                           k.arith("divui", col, k.c(p.tileCols)));
  std::string r = k.arith("remui", row, k.c(p.tileRows));
  std::string c = k.arith("remui", col, k.c(p.tileCols));
  std::string face =
      k.add(k.mul(k.arith("divui", r, k.c(p.faceRows)),
                  k.c(p.tileCols / p.faceCols * faceBytes)),
            k.mul(k.arith("divui", c, k.c(p.faceCols)), k.c(faceBytes)));
  std::string inFace =
      k.add(k.mul(k.arith("remui", r, k.c(p.faceRows)), k.c(p.faceCols * elem)),
            k.mul(k.arith("remui", c, k.c(p.faceCols)), k.c(elem)));
  return {page, k.add(face, inFace)};
}

/// Moves `count` elements of `side` starting at host element `linear`
/// (consecutive in one face row) from or to staging address `addr`.
void transfer(KernelText &k, const CopyPlan &p, const CopyPlan::Side &side,
              bool read, const std::string &linear, const std::string &count,
              const std::string &addr) {
  auto [page, offset] = locate(k, p, side, linear);
  std::string size = k.mul(count, k.c(p.elementBytes));
  if (read)
    k.line(llvm::formatv("tile.noc_read_bytes @{0}[{1}] offset {2} size {3} "
                         "-> {4}",
                         side.tensor.name, page, offset, size, addr));
  else
    k.line(llvm::formatv("tile.noc_write_bytes {0} size {1} -> @{2}[{3}] "
                         "offset {4}",
                         addr, size, side.tensor.name, page, offset));
}

/// Moves the chunk's `count` elements (`first`: host element of the
/// first, `slot`: the staging slot) between `side` and L1.
void moveChunk(KernelText &k, const CopyPlan &p, const CopyPlan::Side &side,
               bool read, const std::string &first, const std::string &count,
               const std::string &slot) {
  int64_t elem = p.elementBytes;
  if (!side.contiguous) {
    int64_t stride = side.strides.empty() ? 1 : side.strides.back();
    std::string e = k.beginForTo(count);
    transfer(k, p, side, read, k.add(first, k.mul(e, k.c(stride))), k.c(1),
             k.add(slot, k.mul(e, k.c(elem))));
    k.end();
    return;
  }
  // The run up to the first face column boundary, then a face row each.
  int64_t faceCols = p.faceCols;
  std::string col = k.arith("remui", first, k.c(side.last));
  std::string head = k.arith(
      "minui", count,
      k.arith("subi", k.c(faceCols), k.arith("remui", col, k.c(faceCols))));
  transfer(k, p, side, read, first, head, slot);
  std::string rest = k.arith("subi", count, head);
  std::string runs =
      k.arith("divui", k.add(rest, k.c(faceCols - 1)), k.c(faceCols));
  std::string j = k.beginForTo(runs);
  std::string e = k.add(head, k.mul(j, k.c(faceCols)));
  std::string n = k.arith("minui", k.c(faceCols), k.arith("subi", count, e));
  transfer(k, p, side, read, k.add(first, e), n,
           k.add(slot, k.mul(e, k.c(elem))));
  k.end();
}
} // namespace

std::string strata::tile::writeCopyProgram(const CopyPlan &p) {
  std::string range =
      llvm::formatv("cores [0, 0]-[{0}, {1}]", p.rows - 1, p.cols - 1);
  std::string text = "tile.program @" + p.name + " {\n";
  for (const TensorDecl &t : p.tensors)
    text += declareTensor(t);
  text += llvm::formatv("  tile.circular_buffer @stage {0} : "
                        "!tile.cb<2x!tile.tile<{1}x{2}x{3}>>\n",
                        range, p.tileRows, p.tileCols, p.from.tensor.type);

  int64_t width = p.shape.empty() ? 1 : p.shape.back();
  int64_t viewRows = 1;
  for (size_t d = 0; d + 1 < p.shape.size(); ++d)
    viewRows *= p.shape[d];
  // Chunks of at most a tile's elements; fewer view rows than cores cut
  // their rows finer (whole face rows) so that every core has a share.
  int64_t units = p.rows * p.cols;
  int64_t share = width;
  if (viewRows < units) {
    int64_t perRow = (units + viewRows - 1) / viewRows;
    share = (width + perRow - 1) / perRow;
    share = std::max(p.faceCols,
                     (share + p.faceCols - 1) / p.faceCols * p.faceCols);
  }
  int64_t chunk = std::min({width, share, p.tileRows * p.tileCols});
  int64_t chunks = (width + chunk - 1) / chunk;
  int64_t items = viewRows * chunks;
  int64_t slotBytes = p.tileRows * p.tileCols * p.elementBytes;

  KernelText k;
  std::string row = k.value("tile.core_row"), col = k.value("tile.core_col");
  std::string core = k.add(k.mul(row, k.c(p.cols)), col);
  k.line("tile.cb_reserve_back @stage, " + k.c(2));
  std::string stage = k.value("tile.cb_write_ptr @stage");
  std::string round = k.beginFor((items + units - 1) / units);
  std::string t = k.add(k.mul(round, k.c(units)), core);
  k.beginIf(k.cmp("ult", t, k.c(items)));
  std::string viewRow = k.arith("divui", t, k.c(chunks));
  std::string start = k.mul(k.arith("remui", t, k.c(chunks)), k.c(chunk));
  // The host element of the chunk's first on each side: the view row's
  // index, dimension by dimension from the last, times the strides.
  std::string from = k.c(p.from.offset), to = k.c(p.to.offset);
  std::string rest = viewRow;
  for (size_t d = p.shape.size() - (p.shape.empty() ? 0 : 1); d-- > 0;) {
    std::string index = k.arith("remui", rest, k.c(p.shape[d]));
    rest = k.arith("divui", rest, k.c(p.shape[d]));
    from = k.add(from, k.mul(index, k.c(p.from.strides[d])));
    to = k.add(to, k.mul(index, k.c(p.to.strides[d])));
  }
  if (!p.shape.empty()) {
    from = k.add(from, k.mul(start, k.c(p.from.strides.back())));
    to = k.add(to, k.mul(start, k.c(p.to.strides.back())));
  }
  std::string count = chunks == 1 ? k.c(width)
                                  : k.arith("minui", k.c(chunk),
                                            k.arith("subi", k.c(width), start));
  std::string slot =
      k.add(stage, k.mul(k.arith("remui", round, k.c(2)), k.c(slotBytes)));
  moveChunk(k, p, p.from, /*read=*/true, from, count, slot);
  k.line("tile.noc_read_barrier");
  // The previous chunk's writes (from the other slot) have landed before
  // this one's start, so the next chunk may read into that slot.
  k.line("tile.noc_write_barrier");
  moveChunk(k, p, p.to, /*read=*/false, to, count, slot);
  k.end();
  k.end();
  k.line("tile.noc_write_barrier");
  text += k.str("tile.kernel reader " + range);
  return text + "}\n";
}
