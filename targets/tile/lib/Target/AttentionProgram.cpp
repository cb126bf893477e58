//===- AttentionProgram.cpp - Attention in one program --------------------===//
//
// O = softmax(scale Q K^T) V with the online softmax: core [r, c] takes
// the tasks r, r + rows, ... (a task: `cols` consecutive query tile-rows
// of one head), and of each task the tile-row c. Per block (one query
// tile-row):
//   reader:  the block's Q tiles into @q, then per step the step's K tiles
//            (keyTiles x headDim tiles) into @k;
//   writer:  per step the step's V tiles into @v; at the end the block's
//            output tiles;
//   compute: Q scaled once into @qs; per step the K tiles transposed while
//            unpacking into @kt, the scores S = Q K^T into @s, the new row
//            maximum m (column 0 of @m), the correction alpha =
//            exp(m_old - m) into @alpha, P = exp(S - m) into @p, the row sum
//            l = alpha l + rowsum(P) into @l, O = alpha O + P V into @o; at
//            the end 1 / l (into @alpha) and O / l into @out.
// @m, @l and @o are updated in place: the old tiles are read into Dst,
// popped, and the new ones pushed. With multicast, core [r, 0] reads each
// step of K and V and sends it along row r (the matmul program's
// handshake: receivers reserve the same slots, sem_inc the sender's
// @*_ready, wait for @*_valid). The buffers are the schedule's, in its
// order, so the program's L1 is the model's.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Multicast.h"
#include "Programs.h"

using namespace strata::tile;

namespace {
int64_t bytesOf(const std::string &type) { return type == "bf16" ? 2 : 4; }

/// Where a core is, and the head and query tile-row of its current block.
struct Block {
  std::string row, col, head, qtile;
};
/// The core's coordinates, at a kernel's start.
Block beginBlocks(KernelText &k) {
  Block at;
  at.row = k.value("tile.core_row");
  at.col = k.value("tile.core_col");
  return at;
}
/// Block `b` of the core: task b * rows + row (a head's `cols` tile-rows),
/// of which the core takes tile-row `col`.
void blockOf(KernelText &k, const AttentionPlan &p, Block &at,
             const std::string &b) {
  std::string task = k.add(k.mul(b, k.c(p.rows)), at.row);
  int64_t chunks = p.qt / p.cols;
  at.head = k.arith("divui", task, k.c(chunks));
  std::string chunk = k.arith("remui", task, k.c(chunks));
  at.qtile = k.add(k.mul(chunk, k.c(p.cols)), at.col);
}

bool multicasts(const AttentionPlan &p) { return p.multicast && p.cols > 1; }

/// Sets the sender's @<prefix>_valid: the semaphore multicast sends it.
void initSender(KernelText &k, const AttentionPlan &p, const Block &at,
                const std::string &prefix) {
  if (!multicasts(p))
    return;
  k.beginIf(k.cmp("eq", at.col, k.c(0)));
  k.line(llvm::formatv("tile.sem_set @{0}_valid, {1}", prefix, k.c(1)));
  k.end();
}

/// Reads `tiles` consecutive pages of `tensor` from `first` into the
/// reserved slots of `cb` and pushes them; with multicast only core
/// [r, 0] reads and sends them along row r.
void stage(KernelText &k, const AttentionPlan &p, const Block &at,
           const std::string &cb, const TensorDecl &tensor,
           const std::string &first, int64_t tiles, bool multicast) {
  int64_t bytes = p.tileRows * p.tileCols * bytesOf(tensor.type);
  k.line(llvm::formatv("tile.cb_reserve_back @{0}, {1}", cb, k.c(tiles)));
  std::string ptr = k.value("tile.cb_write_ptr @" + cb);
  if (multicast)
    k.beginIf(k.cmp("eq", at.col, k.c(0)));
  std::string t = k.beginFor(tiles);
  k.line(llvm::formatv("tile.noc_read_tile @{0}[{1}] -> {2}", tensor.name,
                       k.add(first, t), k.add(ptr, k.mul(t, k.c(bytes)))));
  k.end();
  k.line("tile.noc_read_barrier");
  if (multicast)
    multicastHandshake(k, cb, ptr,
                       llvm::formatv("cores [{0}, {1}]-[{0}, {2}]", at.row,
                                     k.c(1), k.c(p.cols - 1)),
                       llvm::formatv("[{0}, {1}]", at.row, k.c(0)), p.cols - 1,
                       tiles * bytes);
  k.line(llvm::formatv("tile.cb_push_back @{0}, {1}", cb, k.c(tiles)));
}

std::string reader(const AttentionPlan &p, const std::string &range) {
  KernelText k;
  Block at = beginBlocks(k);
  initSender(k, p, at, "k");
  std::string b = k.beginFor(p.blocks);
  blockOf(k, p, at, b);
  std::string qRow = k.add(k.mul(at.head, k.c(p.qt)), at.qtile);
  stage(k, p, at, "q", p.q, k.mul(qRow, k.c(p.dt)), p.dt, false);
  std::string j = k.beginFor(p.kt / p.kb);
  std::string kRow = k.add(k.mul(at.head, k.c(p.kt)), k.mul(j, k.c(p.kb)));
  stage(k, p, at, "k", p.k, k.mul(kRow, k.c(p.dt)), p.kb * p.dt, multicasts(p));
  k.end();
  k.end();
  return k.str("tile.kernel reader " + range);
}

std::string writer(const AttentionPlan &p, const std::string &range) {
  KernelText k;
  Block at = beginBlocks(k);
  initSender(k, p, at, "v");
  std::string b = k.beginFor(p.blocks);
  blockOf(k, p, at, b);
  std::string j = k.beginFor(p.kt / p.kb);
  std::string vRow = k.add(k.mul(at.head, k.c(p.kt)), k.mul(j, k.c(p.kb)));
  stage(k, p, at, "v", p.v, k.mul(vRow, k.c(p.dvt)), p.kb * p.dvt,
        multicasts(p));
  k.end();
  int64_t bytes = p.tileRows * p.tileCols * bytesOf(p.o.type);
  std::string first =
      k.mul(k.add(k.mul(at.head, k.c(p.qt)), at.qtile), k.c(p.dvt));
  k.line(llvm::formatv("tile.cb_wait_front @out, {0}", k.c(p.dvt)));
  std::string ptr = k.value("tile.cb_read_ptr @out");
  std::string t = k.beginFor(p.dvt);
  k.line(llvm::formatv("tile.noc_write_tile {0} -> @{1}[{2}]",
                       k.add(ptr, k.mul(t, k.c(bytes))), p.o.name,
                       k.add(first, t)));
  k.end();
  k.line("tile.noc_write_barrier");
  k.line(llvm::formatv("tile.cb_pop_front @out, {0}", k.c(p.dvt)));
  k.end();
  return k.str("tile.kernel writer " + range);
}

/// Hands Dst over after the math ops: commit, wait.
void handOver(KernelText &k) {
  k.line("tile.commit_dst");
  k.line("tile.wait_dst");
}

/// Packs dst[slot] into one new tile of `cb`.
void packOne(KernelText &k, const std::string &cb, int64_t slot) {
  k.line(llvm::formatv("tile.cb_reserve_back @{0}, {1}", cb, k.c(1)));
  k.line(llvm::formatv("tile.pack_tile dst[{0}] -> @{1}[{2}]", k.c(slot), cb,
                       k.c(0)));
  k.line(llvm::formatv("tile.cb_push_back @{0}, {1}", cb, k.c(1)));
}

void popWait(KernelText &k, const std::string &pop, int64_t popped,
             const std::string &wait, int64_t waited) {
  k.line(llvm::formatv("tile.cb_pop_front @{0}, {1}", pop, k.c(popped)));
  k.line(llvm::formatv("tile.cb_wait_front @{0}, {1}", wait, k.c(waited)));
}

std::string compute(const AttentionPlan &p, const std::string &range) {
  KernelText k;
  int64_t kb = p.kb, dt = p.dt, dvt = p.dvt;
  k.beginFor(p.blocks);
  k.line(llvm::formatv("tile.cb_wait_front @q, {0}", k.c(dt)));
  std::string q = "q";
  if (p.scaled) {
    // Q scaled once per block: every score is then scaled.
    q = "qs";
    std::string d = k.beginFor(dt);
    k.line("tile.acquire_dst");
    k.line(llvm::formatv("tile.unpack_tile @q[{0}] -> dst[{1}]", d, k.c(0)));
    k.line(llvm::formatv("tile.unary_scalar mul dst[{0}], {1}", k.c(0),
                         f32Immediate(p.scale)));
    handOver(k);
    packOne(k, "qs", 0);
    k.line("tile.release_dst");
    k.end();
    popWait(k, "q", dt, "qs", dt);
  }
  std::string j = k.beginFor(p.kt / kb);
  std::string later = k.cmp("ugt", j, k.c(0));
  // K^T: tile (d, jj) of @kt is K's tile (jj, d) transposed.
  k.line(llvm::formatv("tile.cb_wait_front @k, {0}", k.c(kb * dt)));
  std::string d = k.beginFor(dt);
  std::string jj = k.beginFor(kb);
  k.line("tile.acquire_dst");
  k.line(llvm::formatv("tile.unpack_tile @k[{0}] -> dst[{1}] transpose",
                       k.add(k.mul(jj, k.c(dt)), d), k.c(0)));
  handOver(k);
  packOne(k, "kt", 0);
  k.line("tile.release_dst");
  k.end();
  k.end();
  popWait(k, "k", kb * dt, "kt", kb * dt);
  // S = Q K^T, one tile per acquire.
  jj = k.beginFor(kb);
  k.line("tile.acquire_dst");
  d = k.beginFor(dt);
  k.line(llvm::formatv("tile.matmul_tiles @{0}[{1}], @kt[{2}] -> dst[{3}]", q,
                       d, k.add(k.mul(d, k.c(kb)), jj), k.c(0)));
  k.end();
  handOver(k);
  packOne(k, "s", 0);
  k.line("tile.release_dst");
  k.end();
  popWait(k, "kt", kb * dt, "s", kb);
  // The new row maximum (dst[0]) and the correction (dst[1]).
  k.line("tile.acquire_dst");
  k.beginIf(later);
  k.line(llvm::formatv("tile.unpack_tile @m[{0}] -> dst[{0}]", k.c(0)));
  k.end();
  jj = k.beginFor(kb);
  k.line(llvm::formatv("tile.reduce max row @s[{0}] -> dst[{1}]", jj, k.c(0)));
  k.end();
  k.beginIf(later);
  k.line(llvm::formatv("tile.unpack_tile @m[{0}] -> dst[{1}]", k.c(0), k.c(1)));
  k.line(llvm::formatv("tile.binary_dst sub dst[{0}], dst[{1}] -> dst[{0}]",
                       k.c(1), k.c(0)));
  k.line(llvm::formatv("tile.unary exp dst[{0}]", k.c(1)));
  k.end();
  handOver(k);
  k.beginIf(later);
  k.line(llvm::formatv("tile.cb_pop_front @m, {0}", k.c(1)));
  packOne(k, "alpha", 1);
  k.end();
  packOne(k, "m", 0);
  k.line("tile.release_dst");
  k.line(llvm::formatv("tile.cb_wait_front @m, {0}", k.c(1)));
  // P = exp(S - m).
  jj = k.beginFor(kb);
  k.line("tile.acquire_dst");
  k.line(llvm::formatv("tile.binary sub @s[{0}], @m[{1}] -> dst[{1}] bcast col",
                       jj, k.c(0)));
  k.line(llvm::formatv("tile.unary exp dst[{0}]", k.c(0)));
  handOver(k);
  packOne(k, "p", 0);
  k.line("tile.release_dst");
  k.end();
  popWait(k, "s", kb, "p", kb);
  k.beginIf(later);
  k.line(llvm::formatv("tile.cb_wait_front @alpha, {0}", k.c(1)));
  k.end();
  // l = alpha l + rowsum(P).
  k.line("tile.acquire_dst");
  k.beginIf(later);
  k.line(llvm::formatv("tile.binary mul @l[{0}], @alpha[{0}] -> dst[{0}]",
                       k.c(0)));
  k.end();
  jj = k.beginFor(kb);
  k.line(llvm::formatv("tile.reduce sum row @p[{0}] -> dst[{1}]", jj, k.c(0)));
  k.end();
  handOver(k);
  k.beginIf(later);
  k.line(llvm::formatv("tile.cb_pop_front @l, {0}", k.c(1)));
  k.end();
  packOne(k, "l", 0);
  k.line("tile.release_dst");
  k.line(llvm::formatv("tile.cb_wait_front @l, {0}", k.c(1)));
  // O = alpha O + P V, tile by tile, the old tile at the front.
  k.line(llvm::formatv("tile.cb_wait_front @v, {0}", k.c(kb * dvt)));
  std::string t = k.beginFor(dvt);
  k.line("tile.acquire_dst");
  k.beginIf(later);
  k.line(llvm::formatv(
      "tile.binary mul @o[{0}], @alpha[{0}] -> dst[{0}] bcast col", k.c(0)));
  k.end();
  jj = k.beginFor(kb);
  k.line(llvm::formatv("tile.matmul_tiles @p[{0}], @v[{1}] -> dst[{2}]", jj,
                       k.add(k.mul(jj, k.c(dvt)), t), k.c(0)));
  k.end();
  handOver(k);
  k.beginIf(later);
  k.line(llvm::formatv("tile.cb_pop_front @o, {0}", k.c(1)));
  k.end();
  packOne(k, "o", 0);
  k.line("tile.release_dst");
  k.end();
  k.line(llvm::formatv("tile.cb_pop_front @p, {0}", k.c(kb)));
  k.line(llvm::formatv("tile.cb_pop_front @v, {0}", k.c(kb * dvt)));
  k.beginIf(later);
  k.line(llvm::formatv("tile.cb_pop_front @alpha, {0}", k.c(1)));
  k.end();
  k.line(llvm::formatv("tile.cb_wait_front @o, {0}", k.c(dvt)));
  k.end();
  // 1 / l into @alpha, then O / l.
  k.line("tile.acquire_dst");
  k.line(llvm::formatv("tile.unpack_tile @l[{0}] -> dst[{0}]", k.c(0)));
  k.line(llvm::formatv("tile.unary recip dst[{0}]", k.c(0)));
  handOver(k);
  packOne(k, "alpha", 0);
  k.line("tile.release_dst");
  k.line(llvm::formatv("tile.cb_wait_front @alpha, {0}", k.c(1)));
  t = k.beginFor(dvt);
  k.line("tile.acquire_dst");
  k.line(llvm::formatv(
      "tile.binary mul @o[{0}], @alpha[{1}] -> dst[{1}] bcast col", t, k.c(0)));
  handOver(k);
  packOne(k, "out", 0);
  k.line("tile.release_dst");
  k.end();
  for (auto [cb, tiles] : {std::pair<std::string, int64_t>("o", dvt),
                           {"alpha", 1},
                           {"m", 1},
                           {"l", 1},
                           {q, dt}})
    k.line(llvm::formatv("tile.cb_pop_front @{0}, {1}", cb, k.c(tiles)));
  k.end();
  return k.str(llvm::formatv("tile.kernel compute {0} attributes {{dst_type = "
                             "f32, fidelity = \"{1}\"}",
                             range, p.fidelity));
}
} // namespace

std::string strata::tile::writeAttentionProgram(const AttentionPlan &p) {
  std::string range =
      llvm::formatv("cores [0, 0]-[{0}, {1}]", p.rows - 1, p.cols - 1);
  std::string text = "tile.program @" + p.name;
  if (!p.decision.empty())
    text += " attributes {attention = {" + p.decision + "}}";
  text += " {\n";
  for (const TensorDecl &t : p.tensors)
    text += declareTensor(t);
  for (const AttentionPlan::Buffer &b : p.buffers)
    text +=
        llvm::formatv("  tile.circular_buffer @{0} {1} : "
                      "!tile.cb<{2}x!tile.tile<{3}x{4}x{5}>>\n",
                      b.name, range, b.tiles, p.tileRows, p.tileCols, b.type);
  if (multicasts(p))
    for (const char *name : {"k_ready", "k_valid", "v_ready", "v_valid"})
      text += llvm::formatv("  tile.semaphore @{0} {1} init 0\n", name, range);
  text += reader(p, range) + compute(p, range) + writer(p, range);
  return text + "}\n";
}
