//===- ScratchpadModel.cpp - Schedules for grids with scratchpads ---------===//
//
// A contraction C[m, n] += A[m, k] * B[k, n] on a rows x cols grid of units
// is split into output blocks: the grid is filled (one row of units per
// block row of m, one column per block column of n), each unit computes its
// blocks one after the other, and for each block walks k in steps. Per
// unit, the scratchpad holds at once: two steps of A (mb x kb tiles) and of
// B (kb x nb tiles) so the next step loads while this one computes, the
// block's partial sums (mb x nb accumulator tiles) when k takes more than
// one step, two rows of output tiles (one drains while the next is
// written), and two synchronization words per multicast operand. Every
// candidate block that fits is costed with the description's numbers
// (matrix-unit cycles per tile, the data-movement engine's setup and rate,
// DRAM bandwidth) and the fastest is kept; the same costing decides whether
// a shared operand is read by one unit of each row (column) and multicast
// to the others, or read by every unit. A batch of products (batch
// matmul) runs its products on separate rows of units when one product
// leaves rows free, in rounds of as many as divide the batch.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/ScratchpadModel.h"
#include "ScratchpadCosts.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace strata;

const hw::MemoryLevel *strata::gridScratchpad(const hw::Description &chip) {
  const hw::MemoryLevel *pad = nullptr;
  for (const hw::MemoryLevel &mem : chip.memory) {
    if (mem.kind == "cache")
      return nullptr;
    if (!pad && mem.kind == "scratchpad" && chip.totalUnits(mem.owner) > 1)
      pad = &mem;
  }
  return pad;
}

UnitGrid strata::unitGrid(const hw::Description &chip,
                          const hw::MemoryLevel &pad) {
  UnitGrid grid;
  for (size_t i = 0; i < chip.compute.size(); ++i)
    if (chip.compute[i].name == pad.owner) {
      grid.cols = std::max<int64_t>(chip.compute[i].count, 1);
      if (i > 0)
        grid.rows = std::max<int64_t>(chip.compute[i - 1].count, 1);
    }
  return grid;
}

namespace {
using namespace strata::scratchpad;

/// Operand `i`'s element type; without types, the nest's element size.
std::string typeOf(const LoopNest &nest, size_t i) {
  if (i < nest.elementTypes.size())
    return nest.elementTypes[i];
  return nest.elementBytes == 2 ? "bf16" : "f32";
}

/// One candidate: blocks of mb x nb output tiles, k steps of kb tiles.
struct Plan {
  int64_t mb = 0, nb = 0, kb = 0, stages = 2;
  bool multicastA = false, multicastB = false;
  int64_t bytes = 0;
  double cycles = 0, compute = 0, movement = 0, dram = 0;
  /// The units' time alone (compute and data movement, without DRAM's
  /// bound): among plans that DRAM bounds alike, the one whose units finish
  /// soonest (fewer partial-sum reloads, longer transfers).
  double units = 0;
};

/// The contraction being scheduled, in tiles of the matrix intrinsic.
struct Contraction {
  int64_t m = -1, n = -1, k = -1;                // loops
  int64_t mExtent = 0, nExtent = 0, kExtent = 0; // elements of m, n, k
  /// A convolution as its implicit GEMM: m the output pixels (the loops of
  /// the output but the last, flattened; grid and block on loop `m`, the
  /// output's last pixel loop), k the filter taps times the channels
  /// (flattened; the k step on loop `k`, the channel loop): a k tile holds
  /// the channels of one tap, or, when they are not whole tiles, runs of
  /// the channels of consecutive taps.
  int64_t channels = 0;
  int64_t rowLength = 1; // a convolution's output pixels per output row
  /// Transfers that read one A tile: 1, or for a convolution one per run
  /// of contiguous rows and face column (its rows are gathered from the
  /// input).
  int64_t aPieces = 1;
  int64_t a = -1, b = -1;                                 // operand indices
  int64_t mt = 0, nt = 0, kt = 0;                         // extents in tiles
  int64_t aTile = 0, bTile = 0, accTile = 0, outTile = 0; // bytes
  double tileCycles = 0; // one intrinsic at the fastest rate
  /// Bytes per cycle a partial-sum tile is read back at: the intrinsic's
  /// operand path (operand_bytes_per_cycle.one) when slower than the
  /// scratchpad (0: the scratchpad's bandwidth).
  double reloadBytesPerCycle = 0;
  int64_t rows = 1, cols = 1;      // units used by one matrix product
  std::vector<int64_t> batchLoops; // parallel loops of all three operands
  int64_t batch = 1;               // matrix products (their extents' product)
  int64_t groups = 1; // products computed at once, on separate unit rows
  int64_t rounds = 1; // batch / groups
  /// Capacity of the intrinsic's own accumulator memory (0: none; the
  /// partial sums live in the scratchpad). The array adds into it in place,
  /// so k steps reload nothing; it holds two blocks of mb x nb accumulator
  /// tiles, so that one drains while the next is computed.
  int64_t accCapacity = 0;
};

/// Calls `add(name, copies, rows, cols, bytes)` for every buffer a plan
/// keeps in the scratchpad of a unit (rows x cols tiles, `copies` times).
template <typename Add>
void forEachBuffer(const Contraction &c, int64_t mb, int64_t nb, int64_t kb,
                   int64_t stages, bool mcA, bool mcB, const Costs &costs,
                   Add add) {
  add("a", stages, mb, kb, stages * mb * kb * c.aTile);
  add("b", stages, kb, nb, stages * kb * nb * c.bTile);
  if (!c.accCapacity && llvm::divideCeilSigned(c.kt, kb) > 1)
    add("partial sums", 1, mb, nb, mb * nb * c.accTile);
  // Results leave a row of tiles at a time through the scratchpad; with an
  // accumulator memory they move from it directly, or, converted to a
  // narrower output type, a block at a time.
  if (!c.accCapacity)
    add("output", 2, 1, nb, 2 * nb * c.outTile);
  else if (c.outTile != c.accTile)
    add("output", 2, mb, nb, 2 * mb * nb * c.outTile);
  if (c.channels) // a convolution's padding rows are copied from it
    add("zero tile", 1, 1, 1, c.aTile);
  int64_t words = 2 * (int64_t(mcA) + int64_t(mcB));
  if (words)
    add("synchronization words", words, 0, 0, words * costs.align);
}

int64_t footprintBytes(const Contraction &c, int64_t mb, int64_t nb, int64_t kb,
                       int64_t stages, bool mcA, bool mcB, const Costs &costs) {
  int64_t total = 0;
  forEachBuffer(c, mb, nb, kb, stages, mcA, mcB, costs,
                [&](const char *, int64_t, int64_t, int64_t, int64_t bytes) {
                  total += bytes;
                });
  return total;
}

/// The buffers of a plan with their sizes, for messages.
std::string describeFootprint(const Contraction &c, int64_t mb, int64_t nb,
                              int64_t kb, const Costs &costs) {
  std::string text;
  forEachBuffer(c, mb, nb, kb, 2, false, false, costs,
                [&](const char *name, int64_t copies, int64_t rows,
                    int64_t cols, int64_t bytes) {
                  text += llvm::formatv("{0}{1} {2} x {3}x{4} tiles = {5} B",
                                        text.empty() ? "" : ", ", name, copies,
                                        rows, cols, bytes)
                              .str();
                });
  return text;
}

/// Predicted cycles of a plan (the largest of the units' compute and data
/// movement, per k step, and DRAM over the whole op).
void cost(const Contraction &c, const Costs &costs, Plan &p) {
  int64_t mPer = llvm::divideCeilSigned(c.mt, c.rows),
          nPer = llvm::divideCeilSigned(c.nt, c.cols);
  int64_t rm = llvm::divideCeilSigned(mPer, p.mb),
          rn = llvm::divideCeilSigned(nPer, p.nb);
  int64_t steps = llvm::divideCeilSigned(c.kt, p.kb);
  double reloadRate =
      c.reloadBytesPerCycle > 0
          ? std::min(c.reloadBytesPerCycle, costs.padBytesPerCycle)
          : costs.padBytesPerCycle;
  double reload =
      steps > 1 && !c.accCapacity ? double(c.accTile) / reloadRate : 0;
  double compute = double(p.mb * p.nb) * (double(p.kb) * c.tileCycles + reload);
  auto load = [&](int64_t tiles, int64_t tileBytes, bool multicast,
                  int64_t sharers, int64_t pieces = 1) {
    double reads = double(tiles * pieces) *
                   costs.transfer(double(tileBytes) / double(pieces));
    if (multicast && sharers > 1)
      reads += costs.transfer(double(tiles * tileBytes));
    return reads;
  };
  double moveA = load(p.mb * p.kb, c.aTile, p.multicastA, c.cols, c.aPieces);
  double moveB = load(p.kb * p.nb, c.bTile, p.multicastB, c.rows);
  // A step's reads complete (DRAM latency) before the step is handed on.
  double move = costs.stepLatency +
                (costs.engines >= 2 ? std::max(moveA, moveB) : moveA + moveB);
  double write = double(p.mb * p.nb) * costs.transfer(double(c.outTile));
  // With s copies of each operand, a step's loads have s - 1 steps of
  // compute to arrive in.
  double perBlock =
      double(steps) * std::max(compute, move / double(p.stages - 1)) + write;
  p.compute = double(rm * rn * steps) * compute;
  p.movement = double(rm * rn) * (double(steps) * move + write);
  double units = double(c.rows * c.cols), blocks = double(rm * rn);
  double kBytes = double(steps * p.kb);
  double aBytes = blocks * c.rows * p.mb * kBytes * c.aTile *
                  (p.multicastA ? 1 : double(c.cols));
  double bBytes = blocks * c.cols * p.nb * kBytes * c.bTile *
                  (p.multicastB ? 1 : double(c.rows));
  double outBytes = blocks * units * double(p.mb * p.nb * c.outTile);
  // The groups' products share DRAM; the rounds run one after the other.
  p.dram =
      double(c.groups) * (aBytes + bBytes + outBytes) / costs.dramBytesPerCycle;
  p.units = double(rm * rn) * perBlock + move;
  p.cycles = std::max(p.units, p.dram);
  p.cycles *= double(c.rounds);
  p.units *= double(c.rounds);
  p.compute *= double(c.rounds);
  p.movement *= double(c.rounds);
  p.dram *= double(c.rounds);
}

/// Finds m, n, k and the operands of a contraction whose operands are
/// matrices, or batches of matrices indexed first by the same parallel
/// loops (a batch matmul).
bool matchContraction(const LoopNest &nest, Contraction &c) {
  const LoopNest::Operand *out = nullptr;
  for (const LoopNest::Operand &op : nest.operands)
    if (op.output)
      out = &op;
  if (!out || out->dims.size() < 2 || nest.operands.size() != 3 ||
      nest.extents.size() != out->dims.size() + 1)
    return false;
  size_t batchRank = out->dims.size() - 2;
  c.batchLoops.assign(out->dims.begin(), out->dims.begin() + batchRank);
  for (int64_t loop : c.batchLoops) {
    if (loop < 0 || nest.reduction[loop])
      return false;
    c.batch *= nest.extents[loop];
  }
  c.m = out->dims[batchRank];
  c.n = out->dims[batchRank + 1];
  for (size_t d = 0; d < nest.extents.size(); ++d)
    if (nest.reduction[d])
      c.k = int64_t(d);
  if (c.m < 0 || c.n < 0 || c.k < 0 || nest.reduction[c.m] ||
      nest.reduction[c.n])
    return false;
  auto batched = [&](std::vector<int64_t> dims) {
    dims.insert(dims.begin(), c.batchLoops.begin(), c.batchLoops.end());
    return dims;
  };
  for (size_t i = 0; i < 2; ++i) {
    const LoopNest::Operand &op = nest.operands[i];
    if (op.dims == batched({c.m, c.k}))
      c.a = int64_t(i);
    else if (op.dims == batched({c.k, c.n}))
      c.b = int64_t(i);
  }
  c.mExtent = nest.extents[c.m];
  c.nExtent = nest.extents[c.n];
  c.kExtent = nest.extents[c.k];
  return c.a >= 0 && c.b >= 0;
}

/// A 2-D convolution out[n, oh, ow, f] += in[n, oh + kh, ow + kw, c] *
/// filter[kh, kw, c, f] (any strides and dilations: the input's window
/// dimensions are not single loops) as its implicit GEMM.
bool matchConvolution(const LoopNest &nest, Contraction &c) {
  if (nest.operands.size() != 3 || nest.extents.size() != 7)
    return false;
  const LoopNest::Operand &in = nest.operands[0], &filter = nest.operands[1],
                          &out = nest.operands[2];
  if (!out.output || out.dims.size() != 4 || filter.dims.size() != 4 ||
      in.dims.size() != 4 || in.windowLoops.size() != 4 || in.dims[1] >= 0 ||
      in.dims[2] >= 0)
    return false;
  int64_t n = out.dims[0], oh = out.dims[1], ow = out.dims[2], f = out.dims[3],
          kh = filter.dims[0], kw = filter.dims[1], ch = filter.dims[2];
  std::vector<int64_t> window = in.windowLoops;
  llvm::sort(window);
  std::vector<int64_t> expected{oh, ow, kh, kw};
  llvm::sort(expected);
  if (in.dims[0] != n || in.dims[3] != ch || filter.dims[3] != f ||
      window != expected)
    return false;
  for (int64_t loop : {n, oh, ow, f})
    if (loop < 0 || nest.reduction[loop])
      return false;
  for (int64_t loop : {kh, kw, ch})
    if (loop < 0 || !nest.reduction[loop])
      return false;
  c.a = 0;
  c.b = 1;
  c.m = ow;
  c.n = f;
  c.k = ch;
  c.mExtent = nest.extents[n] * nest.extents[oh] * nest.extents[ow];
  c.nExtent = nest.extents[f];
  c.kExtent = nest.extents[kh] * nest.extents[kw] * nest.extents[ch];
  c.channels = nest.extents[ch];
  c.rowLength = nest.extents[ow];
  return true;
}

llvm::Expected<Schedule> scheduleContraction(const LoopNest &nest,
                                             const hw::Description &chip,
                                             const hw::MemoryLevel &pad,
                                             Contraction c,
                                             llvm::StringRef opName) {
  std::string aType = typeOf(nest, c.a), bType = typeOf(nest, c.b),
              outType = typeOf(nest, 2);
  // The intrinsic the units issue for these operand types; a wider
  // accumulator first, so long reductions do not round at every step.
  const hw::MatrixIntrinsic *intrinsic = nullptr;
  std::string offered;
  for (const hw::MatrixIntrinsic &mi : chip.matrix) {
    offered += (offered.empty() ? "" : ", ") + mi.name + " (" + mi.aType +
               " x " + mi.bType + " -> " + mi.accType + ")";
    if (mi.level != pad.owner || mi.aType != aType || mi.bType != bType)
      continue;
    if (!intrinsic || bytesOf(mi.accType) > bytesOf(intrinsic->accType))
      intrinsic = &mi;
  }
  if (!intrinsic)
    return llvm::createStringError(llvm::formatv(
        "'{0}': no matrix intrinsic of '{1}' issued by a '{2}' takes {3} x "
        "{4} operands (the description has: {5})",
        opName, chip.name, pad.owner, aType, bType,
        offered.empty() ? "none" : offered));
  // Priced at the fastest fidelity: data movement hidden there is hidden
  // at every fidelity.
  c.tileCycles =
      intrinsic->cyclesPerInstruction * double(intrinsic->fastestPasses());
  c.reloadBytesPerCycle = intrinsic->operandBytesPerCycleOne;
  if (c.channels) {
    // Rows gathered from the input, split where the intrinsic's operand
    // layout splits a row into faces.
    int64_t faceCols = intrinsic->k;
    const nlohmann::json &layout = intrinsic->layout;
    if (layout.is_object() && layout.contains("face") &&
        layout["face"].is_array() && layout["face"].size() == 2)
      faceCols = std::max<int64_t>(layout["face"][1].get<int64_t>(), 1);
    // Consecutive pixels of an output row are read in runs that end with
    // a face of either tile (two per face of rows) or with the output row
    // (the description's face rows; unit stride assumed: the nest does not
    // say the stride).
    int64_t faceRows = intrinsic->m;
    if (layout.is_object() && layout.contains("face") &&
        layout["face"].is_array() && layout["face"].size() == 2)
      faceRows = std::max<int64_t>(layout["face"][0].get<int64_t>(), 1);
    int64_t runs = std::min(
        intrinsic->m, 2 * llvm::divideCeilSigned(intrinsic->m, faceRows) +
                          llvm::divideCeilSigned(intrinsic->m, c.rowLength));
    c.aPieces = runs * llvm::divideCeilSigned(intrinsic->k, faceCols);
    // Channels that are not whole tiles: a tile row holds several taps, each
    // a run of channels; every row reads its runs in pieces that fit both
    // a tap's channels and a face (an RGB input: one value per piece).
    if (c.channels % intrinsic->k != 0)
      c.aPieces = intrinsic->m *
                  (intrinsic->k /
                   std::gcd(c.channels, std::gcd(faceCols, intrinsic->k)));
  }
  c.mt = llvm::divideCeilSigned(c.mExtent, intrinsic->m);
  c.nt = llvm::divideCeilSigned(c.nExtent, intrinsic->n);
  c.kt = llvm::divideCeilSigned(c.kExtent, intrinsic->k);
  c.aTile = intrinsic->m * intrinsic->k * bytesOf(aType);
  c.bTile = intrinsic->k * intrinsic->n * bytesOf(bType);
  c.accTile = intrinsic->m * intrinsic->n * bytesOf(intrinsic->accType);
  c.outTile = intrinsic->m * intrinsic->n * bytesOf(outType);
  const hw::MemoryLevel *accMem = nullptr;
  for (const hw::MemoryLevel &mem : chip.memory)
    if (mem.name == intrinsic->accumulator)
      accMem = &mem;
  if (accMem && 2 * c.accTile > accMem->capacityBytes)
    return llvm::createStringError(llvm::formatv(
        "'{0}': two {1}x{2} accumulator tiles of {3} ({4} bytes each) do not "
        "fit in accumulator '{5}' ({6} bytes)",
        opName, intrinsic->m, intrinsic->n, intrinsic->name, c.accTile,
        accMem->name, accMem->capacityBytes));
  if (accMem)
    c.accCapacity = accMem->capacityBytes;
  UnitGrid grid = unitGrid(chip, pad);
  // Fill the grid: as many rows and columns of units as there are tiles.
  c.rows = std::min(grid.rows, c.mt);
  c.cols = std::min(grid.cols, c.nt);
  // A batch's products run side by side on the unit rows a product leaves
  // free, as many at once as divide the batch (the plugin derives the same
  // groups from the grid and the product's rows).
  for (c.groups = std::min(grid.rows / c.rows, c.batch); c.batch % c.groups;)
    --c.groups;
  c.rounds = c.batch / c.groups;
  Costs costs = costsOf(chip, pad);
  bool multicastable = pad.engine && pad.engine->kind == "noc";

  Plan best;
  bool found = false;
  int64_t mPer = llvm::divideCeilSigned(c.mt, c.rows),
          nPer = llvm::divideCeilSigned(c.nt, c.cols);
  // Keeps `p` if it fits and is faster than the best; on ties (plans that
  // DRAM bounds alike), the one whose units take less time, then the
  // smaller. The units' time breaks DRAM's ties: a k step of a few tiles
  // reloads the partial sums at every step (an f32 result's larger output
  // buffer made the smallest plan one of 2-tile k steps, 39% slower on the
  // chip than 8-tile ones).
  auto consider = [&](Plan p) {
    p.bytes = footprintBytes(c, p.mb, p.nb, p.kb, p.stages, p.multicastA,
                             p.multicastB, costs);
    if (p.bytes > costs.capacity ||
        (c.accCapacity && 2 * p.mb * p.nb * c.accTile > c.accCapacity))
      return;
    cost(c, costs, p);
    auto near = [](double x, double y) {
      return x <= y * (1 + 1e-9) && y <= x * (1 + 1e-9);
    };
    if (!found || p.cycles < best.cycles * (1 - 1e-9) ||
        (near(p.cycles, best.cycles) &&
         (p.units < best.units * (1 - 1e-9) ||
          (near(p.units, best.units) && p.bytes < best.bytes)))) {
      best = p;
      found = true;
    }
  };
  int mcA = multicastable && c.cols > 1 ? 2 : 1;
  int mcB = multicastable && c.rows > 1 ? 2 : 1;
  for (int64_t mb = 1; mb <= mPer; ++mb)
    for (int64_t nb = 1; nb <= nPer; ++nb)
      // k steps that divide k: a padded step would be computed in full.
      for (int64_t kb = 1; kb <= c.kt; ++kb)
        for (int64_t stages = 2; stages <= 3 && c.kt % kb == 0; ++stages)
          for (int a = 0; a < mcA; ++a)
            for (int b = 0; b < mcB; ++b)
              consider({mb, nb, kb, stages, bool(a), bool(b)});
  if (!found) {
    return llvm::createStringError(llvm::formatv(
        "'{0}' does not fit in scratchpad '{1}': its smallest blocks (one "
        "{2}x{3}x{4} tile of the matrix intrinsic {5}) need {6} bytes per "
        "'{7}' ({8}), more than the {9} bytes of '{1}'",
        opName, pad.name, intrinsic->m, intrinsic->n, intrinsic->k,
        intrinsic->name, footprintBytes(c, 1, 1, 1, 2, false, false, costs),
        pad.owner, describeFootprint(c, 1, 1, 1, costs), pad.capacityBytes));
  }

  Schedule s;
  s.kind = "contraction";
  s.gridLevel = pad.owner;
  size_t loops = nest.extents.size();
  s.grid.assign(loops, 0);
  s.grid[c.m] = llvm::divideCeilSigned(mPer, best.mb) * best.mb * intrinsic->m;
  s.grid[c.n] = llvm::divideCeilSigned(nPer, best.nb) * best.nb * intrinsic->n;
  TileLevel level{pad.name, std::vector<int64_t>(loops, 0)};
  level.sizes[c.m] = best.mb * intrinsic->m;
  level.sizes[c.n] = best.nb * intrinsic->n;
  level.sizes[c.k] = best.kb * intrinsic->k;
  // A unit takes one product of a batch at a time.
  for (int64_t loop : c.batchLoops) {
    s.grid[loop] = 1;
    level.sizes[loop] = 1;
  }
  s.tiles.push_back(level);
  s.tileOrder = c.batchLoops;
  s.tileOrder.insert(s.tileOrder.end(), {c.m, c.n, c.k});
  s.registerTile.assign(loops, 1);
  s.registerTile[c.m] = intrinsic->m;
  s.registerTile[c.n] = intrinsic->n;
  s.registerTile[c.k] = intrinsic->k;
  s.registerOrder = s.tileOrder;
  s.promote = {c.a, c.b};
  s.stages = best.stages;
  if (best.multicastA)
    s.multicast.push_back(c.a);
  if (best.multicastB)
    s.multicast.push_back(c.b);
  s.matrixIntrinsic = intrinsic->name;
  double bound = std::max({best.compute, best.movement, best.dram});
  s.bound = bound == best.compute ? "compute"
            : bound == best.dram  ? "memory"
                                  : "movement";
  s.predictedSeconds = best.cycles / costs.clockHz;
  s.footprints.push_back({pad.name, best.bytes});
  if (accMem)
    s.footprints.push_back({accMem->name, 2 * best.mb * best.nb * c.accTile});
  return s;
}

/// Elementwise ops (any operand a 2-D tensor or a broadcast row, or a batch
/// of them): tiles of the chip's tile shape go round robin over all units,
/// `step` tiles of every operand at a time, double-buffered. An op on
/// scalars (no loop) is one tile.
llvm::Expected<Schedule> scheduleElementwise(const LoopNest &nest,
                                             const hw::Description &chip,
                                             const hw::MemoryLevel &pad,
                                             llvm::StringRef opName) {
  size_t loops = nest.extents.size();
  if (chip.matrix.empty())
    return llvm::createStringError(llvm::formatv(
        "'{0}': a grid of scratchpads moves 2-D tiles; this op has {1} loops",
        opName, loops));
  const hw::MatrixIntrinsic &unit = chip.matrix.front();
  int64_t tileRows = loops >= 2 ? unit.m : 1, tileCols = unit.n;
  // Loops before the last two are a batch of 2-D tensors.
  int64_t tiles = 1;
  for (size_t d = 0; d < loops; ++d)
    tiles *= d + 2 < loops
                 ? nest.extents[d]
                 : llvm::divideCeilSigned(nest.extents[d],
                                          d + 1 == loops ? tileCols : tileRows);
  UnitGrid grid = unitGrid(chip, pad);
  int64_t units = grid.rows * grid.cols;
  Costs costs = costsOf(chip, pad);
  int64_t perStep = 0; // bytes of one tile of every operand
  for (size_t i = 0; i < nest.operands.size(); ++i)
    perStep += tileRows * tileCols * bytesOf(typeOf(nest, i));
  // As many tiles per step as amortize the movement engine's setup (the
  // transfer of a step at least 4 setups long), within the tiles a unit has
  // and half the scratchpad.
  int64_t step = 1;
  while (step < llvm::divideCeilSigned(tiles, units) &&
         2 * (step + 1) * perStep <= costs.capacity / 2 &&
         costs.setup * 4 >
             double(step * tileRows * tileCols * 2) / costs.engineBytesPerCycle)
    ++step;
  if (2 * perStep > costs.capacity)
    return llvm::createStringError(llvm::formatv(
        "'{0}' does not fit in scratchpad '{1}': two tiles of each of its {2} "
        "operands need {3} bytes, more than the {4} bytes of '{1}'",
        opName, pad.name, nest.operands.size(), 2 * perStep,
        pad.capacityBytes));
  Schedule s;
  s.kind = "elementwise";
  s.gridLevel = pad.owner;
  s.registerTile.assign(loops, 1);
  if (loops >= 1)
    s.registerTile[loops - 1] = tileCols;
  if (loops >= 2)
    s.registerTile[loops - 2] = tileRows;
  s.grid = s.registerTile;
  TileLevel level{pad.name, s.registerTile};
  if (loops >= 1)
    level.sizes[loops - 1] *= step;
  s.tiles.push_back(level);
  for (size_t i = 0; i < nest.operands.size(); ++i)
    if (!nest.operands[i].output)
      s.promote.push_back(int64_t(i));
  double bytes = double(tiles) * double(perStep);
  double movement = double(llvm::divideCeilSigned(tiles, units)) *
                    costs.transfer(double(perStep));
  s.bound = bytes / costs.dramBytesPerCycle > movement ? "memory" : "movement";
  s.predictedSeconds =
      std::max(bytes / costs.dramBytesPerCycle, movement) / costs.clockHz;
  s.footprints.push_back({pad.name, 2 * step * perStep});
  return s;
}
/// out[i] = reduce_j f(in[i, j], v[i], ...) over 2-D inputs and per-row
/// vectors (a variance reads the mean), at least one input 2-D; leading
/// loops index all of them (a batch of rows, as a 3-D softmax's).
bool isRowReduction(const LoopNest &nest) {
  size_t loops = nest.extents.size();
  if (loops < 2 || nest.operands.size() < 2 || !nest.reduction.back() ||
      llvm::count(nest.reduction, true) != 1)
    return false;
  std::vector<int64_t> all(loops), row(loops - 1);
  for (size_t d = 0; d < loops; ++d)
    all[d] = int64_t(d);
  row.assign(all.begin(), all.end() - 1);
  bool matrix = false;
  for (size_t i = 0; i < nest.operands.size(); ++i) {
    const LoopNest::Operand &op = nest.operands[i];
    bool perRow = op.dims == row;
    bool last = i + 1 == nest.operands.size();
    if (op.output != last || (last && !perRow))
      return false;
    if (!last && op.dims == all)
      matrix = true;
    else if (!perRow)
      return false;
  }
  return matrix;
}

/// A row reduction keeps whole rows of tiles: units take rows of tiles
/// round robin and hold a row of the input and the result's tile, so the
/// row's other passes (a softmax's) read it from the scratchpad.
llvm::Expected<Schedule> scheduleRowReduction(const LoopNest &nest,
                                              const hw::Description &chip,
                                              const hw::MemoryLevel &pad,
                                              llvm::StringRef opName) {
  if (chip.matrix.empty())
    return llvm::createStringError(llvm::formatv(
        "'{0}': the description has no matrix intrinsic to take the tile "
        "shape from",
        opName));
  const hw::MatrixIntrinsic &unit = chip.matrix.front();
  size_t loops = nest.extents.size();
  int64_t rowTiles = llvm::divideCeilSigned(nest.extents.back(), unit.n);
  int64_t tileRows = llvm::divideCeilSigned(nest.extents[loops - 2], unit.m);
  for (size_t d = 0; d + 2 < loops; ++d)
    tileRows *= nest.extents[d];
  int64_t inTile = unit.m * unit.n * bytesOf(typeOf(nest, 0));
  size_t outIndex = nest.operands.size() - 1;
  int64_t outTile = unit.m * unit.n * bytesOf(typeOf(nest, outIndex));
  // The row, the result's tile and a tile per per-row vector input.
  int64_t bytes = rowTiles * inTile + int64_t(outIndex) * outTile;
  if (bytes > pad.capacityBytes)
    return llvm::createStringError(llvm::formatv(
        "'{0}' does not fit in scratchpad '{1}': a row of {2} input tiles "
        "({3} B) and the result's tile ({4} B) need {5} bytes, more than the "
        "{6} bytes of '{1}'",
        opName, pad.name, rowTiles, rowTiles * inTile, outTile, bytes,
        pad.capacityBytes));
  Schedule s;
  s.kind = "reduction";
  s.gridLevel = pad.owner;
  // Leading (batch) loops: one index at a time.
  s.registerTile.assign(loops, 1);
  s.registerTile[loops - 2] = unit.m;
  s.registerTile[loops - 1] = unit.n;
  s.grid.assign(loops, 1);
  s.grid[loops - 2] = unit.m;
  s.grid[loops - 1] = 0;
  std::vector<int64_t> sizes = s.registerTile;
  sizes[loops - 1] = rowTiles * unit.n;
  s.tiles.push_back({pad.name, sizes});
  s.promote = {0};
  Costs costs = costsOf(chip, pad);
  double total = double(tileRows * rowTiles * inTile);
  s.bound = "memory";
  s.predictedSeconds = total / costs.dramBytesPerCycle / costs.clockHz;
  s.footprints.push_back({pad.name, bytes});
  return s;
}
} // namespace

llvm::Expected<Schedule> strata::chooseScratchpadSchedule(
    const LoopNest &nest, const hw::Description &chip, llvm::StringRef opName) {
  const hw::MemoryLevel *pad = gridScratchpad(chip);
  if (!pad)
    return llvm::createStringError("the description has no grid scratchpad");
  Contraction c;
  if (matchContraction(nest, c) || matchConvolution(nest, c))
    return scheduleContraction(nest, chip, *pad, c, opName);
  if (llvm::is_contained(nest.reduction, true)) {
    if (isRowReduction(nest))
      return scheduleRowReduction(nest, chip, *pad, opName);
    return llvm::createStringError(llvm::formatv(
        "'{0}': reductions other than a 2-D matrix product or along the "
        "rows of a 2-D tensor are not yet scheduled for a grid of "
        "scratchpads ('{1}' of '{2}')",
        opName, pad->name, chip.name));
  }
  return scheduleElementwise(nest, chip, *pad, opName);
}
