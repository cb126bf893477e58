//===- ScratchpadAttention.cpp - Attention in one pass on a grid ----------===//
//
// A unit computes one tile-row of queries of one head at a time (a block):
// it scales the block's Q once, then for each step of `keyTiles` key tiles
// transposes the step's K tiles, computes the scores S = Q K^T on the
// matrix unit, updates the running row maximum, takes P = exp(S - max),
// the correction exp(old max - new max) of the running sum and output
// rows, accumulates O += P V, and at the end divides by the row sum. The
// scores live in the scratchpad one step at a time and never leave it.
//
// A row of units shares a head (its units take consecutive query
// tile-rows), so the head's K and V steps can be read by the row's first
// unit and multicast along the row; the costing decides (one read per row
// and a multicast per step, against every unit reading every step).
// Candidates: every key step that divides the keys, 2 or 3 copies of a
// step's K and V, multicast or not; those that fit are costed with the
// description's numbers (matrix-unit cycles, the scratchpad's bandwidth
// for unpacking, the data-movement engines' setup and rate, DRAM) and the
// fastest kept, the smaller footprint on ties.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/ScratchpadAttention.h"
#include "ScratchpadCosts.h"
#include "strata/Schedule/ScratchpadModel.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace strata;
using namespace strata::scratchpad;

namespace {
/// The shape in tiles of the intrinsic and the numbers the costs use.
struct Problem {
  int64_t dt = 0, dvt = 0, qt = 0, kt = 0; // extents in tiles
  int64_t qTile = 0, kTile = 0, vTile = 0, accTile = 0, outTile = 0; // bytes
  int64_t elements = 0;  // of a tile
  double tileCycles = 0; // one intrinsic at its fastest fidelity
  int64_t rows = 1, cols = 1, blocksPerUnit = 1, tasks = 1;
  std::string accType;
};

/// The largest divisor of `n` that is at most `limit` (at least 1).
int64_t largestDivisor(int64_t n, int64_t limit) {
  int64_t d = std::max<int64_t>(std::min(n, limit), 1);
  while (n % d != 0)
    --d;
  return d;
}

/// The buffers of a plan, in the order the program declares them.
void fillBuffers(const AttentionShape &shape, const Problem &p,
                 const Costs &costs, AttentionSchedule &s) {
  auto add = [&](const char *name, const std::string &type, int64_t tiles) {
    s.buffers.push_back(
        {name, type, tiles, tiles * p.elements * bytesOf(type)});
  };
  s.buffers.clear();
  int64_t kb = s.keyTiles;
  add("q", shape.qType, p.dt);
  if (shape.scaled)
    add("qs", shape.qType, p.dt);
  add("k", shape.kType, s.stages * kb * p.dt);
  add("kt", shape.kType, kb * p.dt);
  add("v", shape.vType, s.stages * kb * p.dvt);
  add("s", p.accType, kb);
  add("p", shape.vType, kb);
  add("m", p.accType, 1);
  add("l", p.accType, 1);
  add("alpha", p.accType, 1);
  add("o", p.accType, p.dvt);
  add("out", shape.outType, 2 * p.dvt);
  s.syncBytes = s.multicast ? 4 * costs.align : 0; // ready, valid of K, V
  s.footprintBytes = s.syncBytes;
  for (const AttentionSchedule::Buffer &b : s.buffers)
    s.footprintBytes += b.bytes;
}

/// Predicted cycles of a plan: per unit, its blocks one after the other,
/// each step the larger of its compute and its loads spread over the
/// copies ahead; DRAM over the whole attention.
void cost(const AttentionShape &shape, const Problem &p, const Costs &costs,
          AttentionSchedule &s) {
  double kb = double(s.keyTiles), dt = double(p.dt), dvt = double(p.dvt);
  int64_t steps = p.kt / s.keyTiles;
  auto unpack = [&](int64_t bytes) {
    return double(bytes) / costs.padBytesPerCycle;
  };
  double exp = shape.expCyclesPerTile;
  // Transposes, scores, row maximum, P, row sum, rescale and P V.
  double step = kb * dt * unpack(p.kTile) + kb * dt * p.tileCycles +
                kb * p.tileCycles + kb * (unpack(p.accTile) + exp) +
                kb * p.tileCycles + kb * dvt * p.tileCycles +
                dvt * unpack(p.accTile);
  // The correction of every step after the first, the scaling of Q, the
  // reciprocal of the row sum and the division.
  double block = double(steps - 1) * exp + dt * unpack(p.qTile) + exp +
                 dvt * unpack(p.accTile);
  auto load = [&](int64_t tiles, int64_t bytes) {
    double reads = double(tiles) * costs.transfer(double(bytes));
    if (s.multicast && p.cols > 1)
      reads += costs.transfer(double(tiles * bytes));
    return reads;
  };
  double moveK = load(s.keyTiles * p.dt, p.kTile);
  double moveV = load(s.keyTiles * p.dvt, p.vTile);
  double move = costs.stepLatency +
                (costs.engines >= 2 ? std::max(moveK, moveV) : moveK + moveV);
  double edges = costs.stepLatency + dt * costs.transfer(double(p.qTile)) +
                 dvt * costs.transfer(double(p.outTile));
  double perBlock =
      double(steps) * std::max(step, move / double(s.stages - 1)) + move +
      edges + block;
  double blocks = double(p.blocksPerUnit);
  s.compute = blocks * (double(steps) * step + block);
  s.movement = blocks * (double(steps) * move + edges);
  double kv = double(p.kt) * (dt * double(p.kTile) + dvt * double(p.vTile));
  double bytes = double(shape.batch * p.qt) *
                     (dt * double(p.qTile) + dvt * double(p.outTile)) +
                 double(p.tasks) * (s.multicast ? 1 : double(p.cols)) * kv;
  s.dram = bytes / costs.dramBytesPerCycle;
  s.cycles = std::max(blocks * perBlock, s.dram);
  double bound = std::max({s.compute, s.movement, s.dram});
  s.bound = bound == s.compute ? "compute"
            : bound == s.dram  ? "memory"
                               : "movement";
}
} // namespace

std::string strata::describeBuffers(const AttentionSchedule &s) {
  std::string text;
  for (const AttentionSchedule::Buffer &b : s.buffers)
    text += llvm::formatv("{0}{1} {2} x {3} tiles = {4} B",
                          text.empty() ? "" : ", ", b.name, b.tiles, b.type,
                          b.bytes)
                .str();
  if (s.syncBytes)
    text += llvm::formatv(", synchronization words {0} B", s.syncBytes).str();
  return text;
}

llvm::Expected<AttentionSchedule>
strata::chooseScratchpadAttention(const AttentionShape &shape,
                                  const hw::Description &chip,
                                  llvm::StringRef opName) {
  const hw::MemoryLevel *pad = gridScratchpad(chip);
  if (!pad)
    return llvm::createStringError("the description has no grid scratchpad");
  // Both products take the operands' type (P is stored as V's type).
  const hw::MatrixIntrinsic *intrinsic = nullptr;
  for (const hw::MatrixIntrinsic &mi : chip.matrix)
    if (mi.level == pad->owner && mi.aType == shape.qType &&
        mi.bType == shape.kType && mi.aType == shape.vType &&
        (!intrinsic || bytesOf(mi.accType) > bytesOf(intrinsic->accType)))
      intrinsic = &mi;
  if (!intrinsic)
    return llvm::createStringError(llvm::formatv(
        "'{0}': no matrix intrinsic of '{1}' issued by a '{2}' takes the "
        "attention's {3}, {4} and {5} operands",
        opName, chip.name, pad->owner, shape.qType, shape.kType, shape.vType));
  if (intrinsic->m != intrinsic->n || intrinsic->n != intrinsic->k)
    return llvm::createStringError(llvm::formatv(
        "'{0}': the attention transposes K tiles: intrinsic {1} is not square",
        opName, intrinsic->name));
  if (shape.keys % intrinsic->n != 0)
    return llvm::createStringError(llvm::formatv(
        "'{0}': {1} keys are not whole tiles of {2}: padded keys would enter "
        "the softmax",
        opName, shape.keys, intrinsic->n));
  Problem p;
  p.tileCycles =
      intrinsic->cyclesPerInstruction * double(intrinsic->fastestPasses());
  p.dt = llvm::divideCeilSigned(shape.headDim, intrinsic->k);
  p.dvt = llvm::divideCeilSigned(shape.valueDim, intrinsic->n);
  p.qt = llvm::divideCeilSigned(shape.queries, intrinsic->m);
  p.kt = shape.keys / intrinsic->n;
  int64_t elements = intrinsic->m * intrinsic->n;
  p.elements = elements;
  p.accType = intrinsic->accType;
  p.qTile = elements * bytesOf(shape.qType);
  p.kTile = elements * bytesOf(shape.kType);
  p.vTile = elements * bytesOf(shape.vType);
  p.accTile = elements * bytesOf(p.accType);
  p.outTile = elements * bytesOf(shape.outType);
  // A row of units: `cols` consecutive query tile-rows of one head (the
  // most that divide them); rows of units take such tasks round robin.
  UnitGrid grid = unitGrid(chip, *pad);
  p.cols = largestDivisor(p.qt, grid.cols);
  p.tasks = shape.batch * (p.qt / p.cols);
  p.rows = largestDivisor(p.tasks, grid.rows);
  p.blocksPerUnit = p.tasks / p.rows;
  Costs costs = costsOf(chip, *pad);
  bool multicastable = pad->engine && pad->engine->kind == "noc" && p.cols > 1;

  AttentionSchedule best;
  bool found = false;
  for (int64_t kb = 1; kb <= p.kt; ++kb)
    for (int64_t stages = 2; stages <= 3 && p.kt % kb == 0; ++stages)
      for (int mc = 0; mc < (multicastable ? 2 : 1); ++mc) {
        AttentionSchedule s;
        s.keyTiles = kb;
        s.stages = stages;
        s.multicast = mc;
        fillBuffers(shape, p, costs, s);
        if (s.footprintBytes > costs.capacity)
          continue;
        cost(shape, p, costs, s);
        if (!found || s.cycles < best.cycles * (1 - 1e-9) ||
            (s.cycles <= best.cycles * (1 + 1e-9) &&
             s.footprintBytes < best.footprintBytes)) {
          best = s;
          found = true;
        }
      }
  if (!found) {
    AttentionSchedule smallest;
    fillBuffers(shape, p, costs, smallest);
    return llvm::createStringError(llvm::formatv(
        "'{0}' does not fit in scratchpad '{1}': its smallest blocks (one "
        "tile-row of queries, a step of one key tile) need {2} bytes per "
        "'{3}' ({4}), more than the {5} bytes of '{1}'",
        opName, pad->name, smallest.footprintBytes, pad->owner,
        describeBuffers(smallest), pad->capacityBytes));
  }
  best.matrixIntrinsic = intrinsic->name;
  best.tileRows = intrinsic->m;
  best.tileCols = intrinsic->n;
  best.rows = p.rows;
  best.cols = p.cols;
  return best;
}
