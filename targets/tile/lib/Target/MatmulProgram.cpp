//===- MatmulProgram.cpp - The blocked matmul program ---------------------===//
//
// Core [r, c] computes the output blocks (bi * rows + r, bj * cols + c) of
// mb x nb tiles, one after the other. For each k step of kb tiles:
//   reader:  the mb x kb tiles of A into @in0. With multicast, core [r, 0]
//            reads them and sends the block along row r: receivers reserve
//            the same slots, tell the sender (sem_inc of its @a_ready) and
//            wait until the sender sets their @a_valid after the data;
//   writer:  the kb x nb tiles of B into @in1, the same way down a column
//            from core [0, c]; at the end of the block, the output tiles;
//   compute: per row of the block and `subblock` output tiles at a time,
//            the partial sums of the earlier steps are unpacked into Dst,
//            the step's tile products accumulated, and the result packed
//            to @partial, or at the last step, after the epilogue (bias,
//            activation on the vector engine), to @out.
// The buffers are the ones the core's schedule accounted for: A and B
// double-buffered, the block's partial sums, two output rows.
// A batch matmul's products are stacked in the tensors (product i's tile
// rows follow product i - 1's); `groups` of them run at once, group g on
// the core rows [g * rows, (g + 1) * rows), whose multicasts stay inside
// the group, in rounds until the batch is done.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Multicast.h"
#include "Programs.h"

using namespace strata::tile;

namespace {
int64_t tileBytes(const TensorDecl &t, int64_t tileElements) {
  return storedTileBytes(t.type, tileElements);
}

/// Where a core is: its row and column on the grid, its row inside its
/// group of rows (`local`), the group's first row (`first`, "" for 0) and
/// the group (`group`, "" for 0).
struct Coords {
  std::string row, col, local, first, group;
  std::string zero; // a convolution's reader: the zero tile's address
};

/// Reads a block of `rows` x `cols` tiles of `tensor` starting at tile
/// (row0, col0) into the reserved slots at `ptr`, then, when `multicast`,
/// runs the sender's or a receiver's side of the handshake.
void readBlock(KernelText &k, const MatmulPlan &p, const TensorDecl &tensor,
               const std::string &ptr, const std::string &row0,
               const std::string &col0, int64_t rows, int64_t cols,
               int64_t tensorCols, bool multicast, const std::string &prefix,
               const Coords &at, bool alongRow) {
  const std::string &row = at.row, &col = at.col;
  // Rows of the group: from its first row (k.c(0) for one group).
  auto groupRow = [&](int64_t offset) {
    if (at.first.empty())
      return k.c(offset);
    return offset ? k.add(at.first, k.c(offset)) : at.first;
  };
  int64_t bytes = tileBytes(tensor, p.tileRows * p.tileCols);
  int64_t sharers = alongRow ? p.cols : p.rows;
  multicast = multicast && sharers > 1;
  std::string sender;
  if (multicast) {
    sender = k.cmp("eq", alongRow ? col : at.local, k.c(0));
    k.beginIf(sender);
  }
  if (p.conv && &tensor == &p.a) {
    gatherConvTiles(k, p, ptr, row0, col0, rows, cols, at.row, at.col, at.zero);
  } else {
    std::string i = k.beginFor(rows);
    std::string j = k.beginFor(cols);
    std::string r = k.add(row0, i), q = k.add(col0, j);
    std::string page = k.add(k.mul(r, k.c(tensorCols)), q);
    std::string slot = k.add(k.mul(i, k.c(cols)), j);
    std::string addr = k.add(ptr, k.mul(slot, k.c(bytes)));
    k.line(llvm::formatv("tile.noc_read_tile @{0}[{1}] -> {2}", tensor.name,
                         page, addr));
    k.end();
    k.end();
  }
  k.line("tile.noc_read_barrier");
  if (multicast) {
    std::string cores =
        alongRow ? llvm::formatv("cores [{0}, {1}]-[{0}, {2}]", row, k.c(1),
                                 k.c(sharers - 1))
                       .str()
                 : llvm::formatv("cores [{0}, {1}]-[{2}, {1}]", groupRow(1),
                                 col, groupRow(sharers - 1))
                       .str();
    std::string senderCore =
        alongRow ? llvm::formatv("[{0}, {1}]", row, k.c(0)).str()
                 : llvm::formatv("[{0}, {1}]", groupRow(0), col).str();
    multicastHandshake(k, prefix, ptr, cores, senderCore, sharers - 1,
                       rows * cols * bytes);
  }
}

/// The sender of a multicast operand starts with its own @*_valid set: the
/// semaphore multicast sends the sender's value.
void initSender(KernelText &k, const Coords &at, bool alongRow,
                const std::string &prefix) {
  std::string sender = k.cmp("eq", alongRow ? at.col : at.local, k.c(0));
  k.beginIf(sender);
  k.line(llvm::formatv("tile.sem_set @{0}_valid, {1}", prefix, k.c(1)));
  k.end();
}

bool multicastsA(const MatmulPlan &p) { return p.multicastA && p.cols > 1; }
bool multicastsB(const MatmulPlan &p) { return p.multicastB && p.rows > 1; }

/// Writes the output block at tile (row0, col0), subblock by subblock.
void drainBlock(KernelText &k, const MatmulPlan &p, const std::string &row0,
                const std::string &col0) {
  int64_t bytes = tileBytes(p.c, p.tileRows * p.tileCols);
  std::string i = k.beginFor(p.mb);
  std::string sb = k.beginFor(p.nb / p.subblock);
  k.line(llvm::formatv("tile.cb_wait_front @out, {0}", k.c(p.subblock)));
  std::string out = k.value("tile.cb_read_ptr @out");
  std::string j = k.beginFor(p.subblock);
  std::string q = k.add(k.add(col0, k.mul(sb, k.c(p.subblock))), j);
  std::string page = k.add(k.mul(k.add(row0, i), k.c(p.nt)), q);
  std::string addr = k.add(out, k.mul(j, k.c(bytes)));
  k.line(llvm::formatv("tile.noc_write_tile {0} -> @{1}[{2}]", addr, p.c.name,
                       page));
  k.end();
  k.line("tile.noc_write_barrier");
  k.line(llvm::formatv("tile.cb_pop_front @out, {0}", k.c(p.subblock)));
  k.end();
  k.end();
}

/// Blocks each core computes per product, how many of them along n, and
/// in all (over its products of the batch).
int64_t blocksAlongN(const MatmulPlan &p) { return p.nt / (p.cols * p.nb); }
int64_t blocksPerProduct(const MatmulPlan &p) {
  return p.mt / (p.rows * p.mb) * blocksAlongN(p);
}
int64_t blocksPerCore(const MatmulPlan &p) {
  return blocksPerProduct(p) * (p.batch / p.groups);
}

/// This core's block `b`: the product of the batch it belongs to ("" for
/// a single product) and its first output tile (row in the product,
/// column); blocks numbered row-major, product after product.
struct Origin {
  std::string product, row0, col0;
};
Origin blockOrigin(KernelText &k, const MatmulPlan &p, const std::string &b,
                   const Coords &at) {
  int64_t rn = blocksAlongN(p);
  Origin o;
  std::string inProduct = b;
  if (p.batch > 1) {
    std::string round = k.arith("divui", b, k.c(blocksPerProduct(p)));
    inProduct = k.arith("remui", b, k.c(blocksPerProduct(p)));
    o.product = k.mul(round, k.c(p.groups));
    if (!at.group.empty())
      o.product = k.add(o.product, at.group);
  }
  std::string bi = k.arith("divui", inProduct, k.c(rn));
  std::string bj = k.arith("remui", inProduct, k.c(rn));
  o.row0 = k.mul(k.add(k.mul(bi, k.c(p.rows)), at.local), k.c(p.mb));
  o.col0 = k.mul(k.add(k.mul(bj, k.c(p.cols)), at.col), k.c(p.nb));
  return o;
}

/// Tile row `row` of product `product` in a tensor whose products are
/// `rowsPer` tile rows each.
std::string stackedRow(KernelText &k, const std::string &product,
                       const std::string &row, int64_t rowsPer) {
  return product.empty() ? row : k.add(k.mul(product, k.c(rowsPer)), row);
}

/// One k step of an operand: reserve its slots in `cb`, read (and
/// multicast) the block of `rows` x `cols` tiles at tile (row0, col0) of
/// `tensor`, push.
void stageBlock(KernelText &k, const MatmulPlan &p, const std::string &cb,
                const TensorDecl &tensor, const std::string &row0,
                const std::string &col0, int64_t rows, int64_t cols,
                int64_t tensorCols, bool multicast, const std::string &prefix,
                const Coords &at, bool alongRow) {
  k.line(llvm::formatv("tile.cb_reserve_back @{0}, {1}", cb, k.c(rows * cols)));
  std::string ptr = k.value("tile.cb_write_ptr @" + cb);
  readBlock(k, p, tensor, ptr, row0, col0, rows, cols, tensorCols, multicast,
            prefix, at, alongRow);
  k.line(llvm::formatv("tile.cb_push_back @{0}, {1}", cb, k.c(rows * cols)));
}

/// The start of a data-movement kernel: the core's coordinates (returned),
/// the sender's semaphore when the operand is multicast, and the loop over
/// this core's blocks (its variable returned in `block`).
Coords beginBlocks(KernelText &k, const MatmulPlan &p, bool multicast,
                   bool alongRow, const std::string &prefix,
                   std::string &block) {
  Coords at;
  at.row = k.value("tile.core_row");
  at.col = k.value("tile.core_col");
  at.local = at.row;
  if (p.groups > 1) {
    at.group = k.arith("divui", at.row, k.c(p.rows));
    at.first = k.mul(at.group, k.c(p.rows));
    at.local = k.arith("subi", at.row, at.first);
  }
  if (multicast)
    initSender(k, at, alongRow, prefix);
  // A convolution's reader copies padding rows from the compute kernel's
  // zero tile.
  if (p.conv && alongRow) {
    k.line(llvm::formatv("tile.cb_wait_front @zero, {0}", k.c(1)));
    at.zero = k.value("tile.cb_read_ptr @zero");
  }
  block = k.beginFor(blocksPerCore(p));
  return at;
}

// The reader sends A.
std::string reader(const MatmulPlan &p, const std::string &range) {
  KernelText k;
  std::string b;
  Coords at = beginBlocks(k, p, multicastsA(p), /*alongRow=*/true, "a", b);
  Origin o = blockOrigin(k, p, b, at);
  std::string row0 = stackedRow(k, o.product, o.row0, p.mt);
  std::string s = k.beginFor(p.kt / p.kb);
  stageBlock(k, p, "in0", p.a, row0, k.mul(s, k.c(p.kb)), p.mb, p.kb, p.kt,
             p.multicastA, "a", at, /*alongRow=*/true);
  k.end();
  k.end();
  return k.str("tile.kernel reader " + range);
}

// The writer sends B and writes the output. A block's output is written
// after the first B step of the next block is on its way, so the compute
// kernel starts the next block while the output drains.
std::string writer(const MatmulPlan &p, const std::string &range) {
  KernelText k;
  std::string b;
  Coords at = beginBlocks(k, p, multicastsB(p), /*alongRow=*/false, "b", b);
  Origin o = blockOrigin(k, p, b, at);
  // The block's row of each epilogue input (a bias), once per block.
  for (size_t e = 0; e < p.epilogueInputs.size(); ++e)
    stageBlock(k, p, "ep" + std::to_string(e), p.epilogueInputs[e], k.c(0),
               o.col0, 1, p.nb, p.nt, false, "", at, false);
  std::string s = k.beginFor(p.kt / p.kb);
  stageBlock(k, p, "in1", p.b,
             stackedRow(k, o.product, k.mul(s, k.c(p.kb)), p.kt), o.col0, p.kb,
             p.nb, p.nt, p.multicastB, "b", at, /*alongRow=*/false);
  k.beginIf(k.cmp("eq", s, k.c(0)));
  k.beginIf(k.cmp("ugt", b, k.c(0)));
  Origin prev = blockOrigin(k, p, k.arith("subi", b, k.c(1)), at);
  drainBlock(k, p, stackedRow(k, prev.product, prev.row0, p.mt), prev.col0);
  k.end();
  k.end();
  k.end();
  k.end();
  Origin last = blockOrigin(k, p, k.c(blocksPerCore(p) - 1), at);
  drainBlock(k, p, stackedRow(k, last.product, last.row0, p.mt), last.col0);
  return k.str("tile.kernel writer " + range);
}

std::string compute(const MatmulPlan &p, const std::string &range) {
  KernelText k;
  int64_t steps = p.kt / p.kb;
  int64_t need = p.epilogue.slots; // Dst slots per output tile
  int64_t sub = p.subblock;
  if (p.conv) {
    // The padding's tile for the reader's padding rows: a fresh Dst tile
    // (zeros), plus the pad's value when it is not zero, packed.
    k.line("tile.acquire_dst");
    if (p.conv->padValue != 0)
      k.line(llvm::formatv("tile.unary_scalar add dst[{0}], {1}", k.c(0),
                           f32Immediate(p.conv->padValue)));
    k.line("tile.commit_dst");
    k.line("tile.wait_dst");
    k.line(llvm::formatv("tile.cb_reserve_back @zero, {0}", k.c(1)));
    k.line(llvm::formatv("tile.pack_tile dst[{0}] -> @zero[{0}]", k.c(0)));
    k.line(llvm::formatv("tile.cb_push_back @zero, {0}", k.c(1)));
    k.line("tile.release_dst");
  }
  k.beginFor(blocksPerCore(p));
  for (size_t e = 0; e < p.epilogueInputs.size(); ++e)
    k.line(llvm::formatv("tile.cb_wait_front @ep{0}, {1}", e, k.c(p.nb)));
  std::string s = k.beginFor(steps);
  k.line(llvm::formatv("tile.cb_wait_front @in0, {0}", k.c(p.mb * p.kb)));
  k.line(llvm::formatv("tile.cb_wait_front @in1, {0}", k.c(p.kb * p.nb)));
  std::string first = k.cmp("eq", s, k.c(0));
  std::string last = k.cmp("eq", s, k.c(steps - 1));
  std::string i = k.beginFor(p.mb);
  std::string sb = k.beginFor(p.nb / sub);
  k.line("tile.acquire_dst");
  if (steps > 1) {
    k.beginIf(first);
    k.orElse();
    k.line(llvm::formatv("tile.cb_wait_front @partial, {0}", k.c(sub)));
    std::string t = k.beginFor(sub);
    k.line(llvm::formatv("tile.unpack_tile @partial[{0}] -> dst[{1}]", t,
                         k.mul(t, k.c(need))));
    k.end();
    k.line(llvm::formatv("tile.cb_pop_front @partial, {0}", k.c(sub)));
    k.end();
  }
  std::string kk = k.beginFor(p.kb);
  std::string j = k.beginFor(sub);
  std::string aIndex = k.add(k.mul(i, k.c(p.kb)), kk);
  std::string bIndex =
      k.add(k.add(k.mul(kk, k.c(p.nb)), k.mul(sb, k.c(sub))), j);
  k.line(llvm::formatv("tile.matmul_tiles @in0[{0}], @in1[{1}] -> dst[{2}]",
                       aIndex, bIndex, k.mul(j, k.c(need))));
  k.end();
  k.end();
  if (!p.epilogue.steps.empty()) {
    k.beginIf(last);
    std::string t = k.beginFor(sub);
    std::vector<std::string> buffers{""}, tiles{""};
    std::string column = k.add(k.mul(sb, k.c(sub)), t);
    for (size_t e = 0; e < p.epilogueInputs.size(); ++e) {
      buffers.push_back("ep" + std::to_string(e));
      tiles.push_back(column);
    }
    llvm::cantFail(
        emitExpression(k, p.epilogue, buffers, tiles, k.mul(t, k.c(need))));
    k.end();
    k.end();
  }
  k.line("tile.commit_dst");
  k.line("tile.wait_dst");
  auto pack = [&](const std::string &cb, int result) {
    k.line(llvm::formatv("tile.cb_reserve_back @{0}, {1}", cb, k.c(sub)));
    std::string t = k.beginFor(sub);
    std::string slot = k.mul(t, k.c(need));
    if (result)
      slot = k.add(slot, k.c(result));
    k.line(llvm::formatv("tile.pack_tile dst[{0}] -> @{1}[{2}]", slot, cb, t));
    k.end();
    k.line(llvm::formatv("tile.cb_push_back @{0}, {1}", cb, k.c(sub)));
  };
  if (steps > 1) {
    k.beginIf(last);
    pack("out", p.epilogue.result);
    k.orElse();
    pack("partial", 0);
    k.end();
  } else {
    pack("out", p.epilogue.result);
  }
  k.line("tile.release_dst");
  k.end();
  k.end();
  k.line(llvm::formatv("tile.cb_pop_front @in0, {0}", k.c(p.mb * p.kb)));
  k.line(llvm::formatv("tile.cb_pop_front @in1, {0}", k.c(p.kb * p.nb)));
  k.end();
  for (size_t e = 0; e < p.epilogueInputs.size(); ++e)
    k.line(llvm::formatv("tile.cb_pop_front @ep{0}, {1}", e, k.c(p.nb)));
  k.end();
  return k.str(llvm::formatv("tile.kernel compute {0} attributes {{dst_type = "
                             "f32, fidelity = \"{1}\"}",
                             range, p.fidelity));
}
} // namespace

std::string strata::tile::writeMatmulProgram(const MatmulPlan &p) {
  std::string range = llvm::formatv("cores [0, 0]-[{0}, {1}]",
                                    p.groups * p.rows - 1, p.cols - 1);
  auto tile = [&](const std::string &type) {
    return llvm::formatv("!tile.tile<{0}x{1}x{2}>", p.tileRows, p.tileCols,
                         elementTypeText(type))
        .str();
  };
  auto buffer = [&](const std::string &name, int64_t tiles,
                    const std::string &type) {
    return llvm::formatv(
               "  tile.circular_buffer @{0} {1} : !tile.cb<{2}x{3}>\n", name,
               range, tiles, tile(type))
        .str();
  };
  std::string text = "tile.program @" + p.name + " {\n";
  for (const TensorDecl &t : p.tensors)
    text += declareTensor(t);
  text += buffer("in0", p.stages * p.mb * p.kb, p.a.type);
  text += buffer("in1", p.stages * p.kb * p.nb, p.b.type);
  if (p.kt / p.kb > 1)
    text += buffer("partial", p.mb * p.nb, "f32");
  text += buffer("out", 2 * p.nb, p.c.type);
  for (size_t e = 0; e < p.epilogueInputs.size(); ++e)
    text +=
        buffer("ep" + std::to_string(e), 2 * p.nb, p.epilogueInputs[e].type);
  if (p.conv)
    text += buffer("zero", 1, p.a.type);
  for (auto [used, prefix] :
       {std::pair(multicastsA(p), "a"), std::pair(multicastsB(p), "b")})
    if (used)
      for (const char *suffix : {"_ready", "_valid"})
        text += llvm::formatv("  tile.semaphore @{0}{1} {2} init 0\n", prefix,
                              suffix, range);
  text += reader(p, range) + compute(p, range) + writer(p, range);
  return text + "}\n";
}
