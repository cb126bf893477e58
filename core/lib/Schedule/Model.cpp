//===- Model.cpp - The analytical schedule model --------------------------===//
//
// The model reasons about reuse the way BLIS-style analyses do, but over any
// loop nest: the register tile maximizes multiply-adds per loaded element
// within the register file; the innermost cache keeps the panels one register
// tile walks (k tile), the next one the output tile with the packed panels
// reused across it (m and n tiles), each sized to half its capacity (the
// other half is for streaming data); the loops split over the compute level
// that owns the vector units.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/Model.h"
#include "strata/HW/Model.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace strata;

bool LoopNest::Operand::uses(int64_t loop) const {
  return std::find(dims.begin(), dims.end(), loop) != dims.end();
}

bool LoopNest::Operand::reads(int64_t loop) const {
  return uses(loop) || std::find(windowLoops.begin(), windowLoops.end(),
                                 loop) != windowLoops.end();
}

static int64_t roundUp(int64_t a, int64_t b) {
  return llvm::divideCeilSigned(a, b) * b;
}

RegisterBlock strata::chooseRegisterBlock(const hw::VectorUnit &unit,
                                          int64_t maxRows, int64_t maxVectors) {
  // Accumulators rows x vectors, plus one register per vector of the
  // operand loaded along the vector loop and one broadcast of the other.
  // The independent accumulators must cover FMA pipes x latency, or the
  // pipes idle. Vector counts are powers of two: the backend legalizes a
  // power-of-two multiple of the native width without waste.
  int64_t registers = std::max<int64_t>(unit.registers, 3);
  double needed = double(std::max<int64_t>(unit.fmaPipes, 1) *
                         std::max<int64_t>(unit.fmaLatencyCycles, 1));
  RegisterBlock best;
  double bestScore = -1;
  for (int64_t vectors = 1; vectors <= std::max<int64_t>(maxVectors, 1);
       vectors *= 2) {
    for (int64_t rows = 1; rows <= std::max<int64_t>(maxRows, 1); ++rows) {
      if (rows * vectors + vectors + 1 > registers)
        break;
      double accumulators = double(rows * vectors);
      double score = accumulators / double(rows + vectors);
      if (accumulators < needed)
        score *= accumulators / needed;
      if (score > bestScore + 1e-9) {
        bestScore = score;
        best = {rows, vectors};
      }
    }
  }
  return best;
}

namespace {
struct CacheLevel {
  std::string name;
  double bytes; // capacity available to one instance of the vector level
};

/// Cache or scratchpad levels, smallest (innermost) first, with the capacity
/// one owner of a vector unit may use.
std::vector<CacheLevel> cacheLevels(const hw::Description &chip,
                                    const std::string &unitLevel) {
  std::vector<CacheLevel> levels;
  double units = double(std::max<int64_t>(chip.totalUnits(unitLevel), 1));
  for (const hw::MemoryLevel &mem : chip.memory) {
    if (mem.kind != "cache" && mem.kind != "scratchpad")
      continue;
    double owners = double(std::max<int64_t>(chip.totalUnits(mem.owner), 1));
    double share = std::min(1.0, owners / units);
    levels.push_back({mem.name, double(mem.capacityBytes) * share});
  }
  std::sort(levels.begin(), levels.end(),
            [](const CacheLevel &a, const CacheLevel &b) {
              return a.bytes < b.bytes;
            });
  return levels;
}

const LoopNest::Operand *firstOutput(const LoopNest &nest) {
  for (const LoopNest::Operand &op : nest.operands)
    if (op.output)
      return &op;
  return nullptr;
}

/// The chip's peak rate for elements of `elementBytes` and the bandwidth of
/// memory level `level` (DRAM where empty; 0 where the description gives
/// none).
struct Rates {
  double flops = 0, bandwidth = 0;
};
Rates ratesOf(const hw::Description &chip, int64_t elementBytes,
              llvm::StringRef level = "") {
  hw::DerivedModel model = hw::deriveModel(chip);
  Rates rates;
  rates.flops = model.peakFlops(elementBytes == 2 ? "bf16" : "f32");
  for (const hw::MemoryModel &mem : model.memory)
    if (level.empty() ? mem.kind == "dram" : mem.name == level)
      rates.bandwidth = mem.bandwidthTotal;
  return rates;
}

/// The operations one byte read from memory level `level` (DRAM where
/// empty) must feed at the chip's peak; 0 where unknown.
double flopsPerByte(const hw::Description &chip, int64_t elementBytes,
                    llvm::StringRef level) {
  Rates rates = ratesOf(chip, elementBytes, level);
  return rates.bandwidth > 0 ? rates.flops / rates.bandwidth : 0;
}

/// Roofline time and bound of the nest, each operand moved once.
void predict(const LoopNest &nest, const hw::Description &chip, Schedule &s) {
  double iterations = 1;
  for (int64_t e : nest.extents)
    iterations *= double(std::max<int64_t>(e, 1));
  double bytes = 0;
  for (const LoopNest::Operand &op : nest.operands) {
    double elements = 1;
    for (int64_t d : op.dims)
      if (d >= 0)
        elements *= double(std::max<int64_t>(nest.extents[d], 1));
    bytes += elements * double(nest.elementBytes);
  }
  auto [flops, bandwidth] = ratesOf(chip, nest.elementBytes);
  double compute = flops > 0 ? iterations * nest.flopsPerIteration / flops : 0;
  double memory = bandwidth > 0 ? bytes / bandwidth : 0;
  s.bound = compute >= memory ? "compute" : "memory";
  s.predictedSeconds = std::max(compute, memory);
}

/// Splits loop `d` (alone) over `parts` instances. Equal parts when the
/// extent divides evenly (and, on the vector loop, into whole vectors):
/// every part then has the same static extent, so its cache tiles are
/// static, one body serves all parts, and only its last register tile is
/// partial (peeled). Otherwise whole register tiles per part, the last part
/// shorter: S4 gives it a static version of the body of its own
/// (GridVersions.cpp); before that, its extent was known only at run time
/// and its tiles were padded and copied once per k tile (a 1024-row GEMM on
/// two cores split as 516 + 508 rows spent 5% of its time in those copies).
void splitLoop(const LoopNest &nest, int64_t d, int64_t parts, Schedule &s) {
  s.grid.assign(nest.extents.size(), 0);
  int64_t extent = nest.extents[d];
  int64_t equal = extent / parts;
  bool wholeVectors =
      d != s.vectorDim || s.vectorWidth <= 1 || equal % s.vectorWidth == 0;
  if (extent % parts == 0 && equal >= s.registerTile[d] && wholeVectors)
    s.grid[d] = equal;
  else
    s.grid[d] =
        roundUp(llvm::divideCeilSigned(extent, parts), s.registerTile[d]);
}

/// Splits one parallel loop over `parts` instances: the loop with the most
/// register tiles, outermost on ties, so every part gets whole tiles.
void chooseGrid(const LoopNest &nest, const std::string &level, int64_t parts,
                Schedule &s) {
  if (parts <= 1)
    return;
  int64_t best = -1;
  int64_t bestTiles = 1;
  for (size_t d = 0; d < nest.extents.size(); ++d) {
    if (nest.reduction[d])
      continue;
    int64_t tiles = llvm::divideCeilSigned(nest.extents[d], s.registerTile[d]);
    if (tiles > bestTiles) {
      best = int64_t(d);
      bestTiles = tiles;
    }
  }
  if (best < 0)
    return;
  s.gridLevel = level;
  splitLoop(nest, best, parts, s);
}

/// Equal tiles of at most `tile` that cover `extent` with the least padding,
/// each a multiple of `multiple`.
int64_t balance(int64_t extent, int64_t tile, int64_t multiple) {
  int64_t count = llvm::divideCeilSigned(extent, tile);
  return roundUp(llvm::divideCeilSigned(extent, count), multiple);
}

/// A reduction tile of at most `fit`: the largest divisor of `extent` no
/// smaller than half of `fit` when there is one (every tile whole: a
/// partial last tile makes all tiles dynamic, zero-filled and masked when
/// packed), else balanced tiles.
int64_t exactTile(int64_t extent, int64_t fit) {
  for (int64_t d = fit; d * 2 >= fit && d >= 1; --d)
    if (extent % d == 0)
      return d;
  return balance(extent, fit, 1);
}

/// A contraction: out[.., m, .., n] += A[.., m, .., k] * B[.., k, .., n] with
/// n the vectorized loop. A may be read through windows (a convolution's
/// input, `in[oh + kh][ow + kw][c]`): its rows m and the window loops (kh,
/// kw) then index it together, k is a loop that indexes it alone (c), and
/// the window loops are reductions that stay inside each register tile, so
/// that one tile of accumulators sums over the whole window (implicit GEMM).
/// Returns false if the nest is not one.
bool scheduleContraction(const LoopNest &nest, const hw::Description &chip,
                         const hw::VectorUnit &unit, int64_t width,
                         int64_t parts, Schedule &s) {
  const LoopNest::Operand *out = firstOutput(nest);
  int64_t n = s.vectorDim;
  if (!out || n < 0 || nest.reduction[n])
    return false;
  const LoopNest::Operand *a = nullptr, *b = nullptr;
  int64_t aIndex = -1, bIndex = -1;
  for (size_t i = 0; i < nest.operands.size(); ++i) {
    const LoopNest::Operand &op = nest.operands[i];
    if (op.output)
      continue;
    if (op.windowed()) {
      // Only A may be windowed (its window is not packed).
      if (op.reads(n) || a)
        return false;
      a = &op, aIndex = int64_t(i);
    } else if (op.uses(n) && !b)
      b = &op, bIndex = int64_t(i);
    else if (!op.uses(n) && !a)
      a = &op, aIndex = int64_t(i);
  }
  if (!a || !b)
    return false;
  // m: the innermost output loop that A indexes and B does not.
  int64_t m = -1;
  for (auto it = out->dims.rbegin(); it != out->dims.rend(); ++it)
    if (*it >= 0 && *it != n && a->reads(*it) && !b->uses(*it)) {
      m = *it;
      break;
    }
  // k: the innermost reduction loop both read, A through a dim of its own.
  int64_t k = -1;
  for (int64_t d = int64_t(nest.extents.size()) - 1; d >= 0; --d)
    if (nest.reduction[d] && a->uses(d) && b->uses(d)) {
      k = d;
      break;
    }
  if (m < 0 || k < 0)
    return false;
  // The window loops: reductions that B reads and A reads only through
  // windows. Every reduction of a windowed A must be one of them or k.
  std::vector<int64_t> window;
  int64_t windowSize = 1;
  for (size_t d = 0; d < nest.extents.size(); ++d) {
    if (!nest.reduction[d] || int64_t(d) == k || !a->windowed())
      continue;
    if (!a->reads(int64_t(d)) || a->uses(int64_t(d)) || !b->uses(int64_t(d)))
      return false;
    window.push_back(int64_t(d));
    windowSize *= nest.extents[d];
  }

  int64_t eb = nest.elementBytes;
  int64_t bigN = nest.extents[n], bigM = nest.extents[m],
          bigK = nest.extents[k];
  RegisterBlock block =
      chooseRegisterBlock(unit, bigM, llvm::divideCeilSigned(bigN, width));
  int64_t nr = block.vectors * width, mr = block.rows;
  s.kind = "contraction";
  s.registerTile.assign(nest.extents.size(), 1);
  s.registerTile[n] = nr;
  s.registerTile[m] = mr;
  chooseGrid(nest, unit.level, parts, s);
  // The grid splits n rather than m when each part then reads clearly
  // fewer operand elements (a quarter fewer): every part reads all of the
  // operand the split loop does not index (all of B when m is split, all
  // of A when n is), packing it again. A 256 x 1024 x 4096 f32 GEMM on two
  // cores reads 2 + 16 MB per part split along m, 4 + 8 MB along n.
  // Parts that get unequal numbers of register tiles weigh in as their
  // slowest one. Otherwise (square problems) m, whose parts then read
  // disjoint rows of A and C.
  if (!s.grid.empty() && (s.grid[m] != 0 || s.grid[n] != 0)) {
    double aElements = double(bigM) * double(bigK) * double(windowSize);
    double bElements = double(bigK) * double(bigN);
    auto cost = [&](int64_t d, double own, double other) {
      int64_t tiles =
          llvm::divideCeilSigned(nest.extents[d], s.registerTile[d]);
      if (tiles < parts)
        return std::numeric_limits<double>::infinity();
      double slowest = double(llvm::divideCeilSigned(tiles, parts)) *
                       double(parts) / double(tiles);
      return (own / double(parts) + other) * slowest;
    };
    int64_t split =
        cost(n, bElements, aElements) < 0.75 * cost(m, aElements, bElements)
            ? n
            : m;
    if (s.grid[split] == 0)
      splitLoop(nest, split, parts, s);
  }

  // The extent one grid part covers.
  auto partExtent = [&](int64_t d) {
    return s.grid.empty() || s.grid[d] == 0 ? nest.extents[d] : s.grid[d];
  };
  std::vector<CacheLevel> caches = cacheLevels(chip, unit.level);
  // The part's A exceeds half the outermost cache: each n tile reads it
  // from memory again.
  double aBytes = double(eb);
  for (int64_t d : a->dims)
    if (d >= 0)
      aBytes *= double(partExtent(d));
  bool aFromMemory = !caches.empty() && aBytes > caches.back().bytes / 2;
  int64_t kc = bigK, mc = roundUp(partExtent(m), mr),
          nc = roundUp(partExtent(n), nr);
  std::vector<std::pair<std::string, int64_t>> sized; // level -> loop
  // The micro-panels of B and A one register tile walks in a k tile.
  auto panelBytes = [&] { return kc * windowSize * (nr + mr) * eb; };
  // Innermost cache: a kc x nr panel of B, reused across the register tiles
  // along m, and the mr x kc panel of A streaming past it, in three quarters
  // of the level; the rest holds the accumulator tile's rows of C. A longer
  // k tile loads and stores each accumulator tile fewer times (a 6 x 64
  // tile's 24 vectors once per 128 k steps instead of 64).
  if (caches.size() >= 1) {
    int64_t fit =
        int64_t(caches[0].bytes * 3 / 4) / ((nr + mr) * eb) / windowSize;
    kc = exactTile(bigK, std::clamp<int64_t>(fit, 1, bigK));
    s.footprints.push_back({caches[0].name, panelBytes()});
    sized.push_back({caches[0].name, k});
  }
  // Next: the m x n output tile, which S4 pads and copies once per k tile,
  // stays there with the kc x nc panel of B (reused across the m tiles) and
  // the mc x kc block of A (reused across the n register tiles):
  // mc*nc + kc*(mc + nc) elements in half the level. Square tiles minimize
  // the traffic for that footprint.
  if (caches.size() >= 2) {
    double budget = caches[1].bytes / 2 / double(eb);
    // Each k step of a windowed A reads the whole window.
    double kw = double(kc * windowSize);
    double side = -kw + std::sqrt(kw * kw + budget);
    // An n tile of at most `wide` elements, balanced over n.
    auto nTile = [&](int64_t wide) {
      int64_t tile = balance(
          partExtent(n),
          std::clamp<int64_t>(wide / nr * nr, nr, roundUp(partExtent(n), nr)),
          nr);
      // A packed row of an even number of register tiles has a power-of-two
      // factor in its stride, so the kc rows the register tile walks
      // collide in a few cache sets; an odd number spreads them over all
      // sets. One more register tile (m's tile then takes what is left), or
      // one fewer when the tile already covers all of n.
      if (tile / nr > 1 && (tile / nr) % 2 == 0)
        tile += tile < roundUp(partExtent(n), nr) ? nr : -nr;
      // An n extent that is no multiple of the vector width pads the output
      // tile that reaches its end (copied in and back each k tile): whole
      // tiles stop before the ragged edge, so the padded one is narrower
      // than a register tile. Tiles of an odd number of register tiles that
      // divide the whole part, no fewer than half as many, when there are
      // some (1000 columns: 320 rather than 576, whose 424-wide edge was
      // copied).
      int64_t whole = partExtent(n) / nr;
      if (partExtent(n) % width != 0 && whole >= 1) {
        tile = std::min(tile, whole * nr);
        for (int64_t d = tile / nr; 2 * d >= tile / nr && d >= 1; --d)
          if (whole % d == 0 && d % 2 == 1) {
            tile = d * nr;
            break;
          }
      }
      return tile;
    };
    nc = nTile(int64_t(side));
    int64_t rows = int64_t((budget - kw * double(nc)) / (double(nc) + kw));
    // When the part's rows need several m tiles, each k tile sweeps all of
    // them (n, k, m order): the output tile streams through this level
    // once per k tile and is no reuse to keep here. The level then holds
    // B's kc x nc panel and A's mc x kc block, kw * (mc + nc) elements, and
    // their split trades two re-reads: A's block comes again from the
    // memory outside once per n tile (eb / 2nc bytes per flop, at that
    // memory's flops per byte), B's micro-panel from this level once per
    // m tile (eb / 2mc, at this level's). The sum is least at
    // nc / mc = sqrt(outside's / this level's flops per byte), about 5:1
    // when A is packed from DRAM (larger than half the outermost cache).
    // From the outermost cache (2:1 there) the gain is under 1% and the
    // square tiles stay. The part's output columns, swept once per k tile,
    // stay in a quarter of the outermost cache: the rest holds A's and B's
    // streams and what other cores and processes keep there. With half, a
    // 4096^2 GEMM (n tile 832, 13.6 MB of output columns) lost 8-15% on
    // one core whenever the shared cache was busy; with a quarter (448: A
    // read 10 times rather than 13) it gains 3-5% on two cores. The n tile
    // is never narrower than the square one.
    bool streams = false;
    double here = flopsPerByte(chip, eb, caches[1].name),
           outside = flopsPerByte(chip, eb, "");
    if (!a->windowed() && rows < partExtent(m) && outside > 0 && here > 0 &&
        caches.size() >= 3 && aFromMemory) {
      double span = budget / kw, ratio = std::sqrt(outside / here);
      int64_t wide = int64_t(span * ratio / (1 + ratio));
      int64_t cap = std::max<int64_t>(
          nr, int64_t(caches.back().bytes / 4 / double(partExtent(m) * eb)));
      wide = nTile(std::min(wide, cap));
      // The odd count of register tiles stays under the cap.
      while (wide > cap && wide > 2 * nr)
        wide -= 2 * nr;
      // Not where the wider tile would pad a wide edge: no odd divisor of
      // the whole register tiles (1100 columns: 17) left it at the cap.
      bool narrowEdge =
          partExtent(n) % width == 0 || (partExtent(n) / nr) % (wide / nr) == 0;
      if (wide > nc && narrowEdge)
        nc = wide;
      rows = int64_t(span) - nc;
      streams = true;
    }
    mc = balance(
        partExtent(m),
        std::clamp<int64_t>(rows / mr * mr, mr, roundUp(partExtent(m), mr)),
        mr);
    // A windowed A (a convolution's input, read in place) has no block to
    // keep here, and m's tile covers one output row: the rows outside m are
    // not tiled, so every k tile sweeps the part's whole output. The k tile
    // is then as long as the packed kc x nc panel of B allows in half the
    // level, however much of it the innermost level misses: the register
    // tile streams its nr elements per k step from here while it issues
    // mr x nr / width multiply-adds, far below this level's bandwidth. A
    // 3x3, 64-channel convolution sweeps its output once instead of 8
    // times (on one core: 137-197 -> 202-222 GFLOP/s).
    if (a->windowed()) {
      int64_t fit = int64_t(budget) / (nc * windowSize);
      if (fit > kc) {
        kc = exactTile(bigK, std::min(fit, bigK));
        s.footprints.front().second = panelBytes();
      }
    }
    s.footprints.push_back(
        {caches[1].name,
         ((streams ? 0 : mc * nc) + kc * windowSize * (mc + nc)) * eb});
    sized.push_back({caches[1].name, m});
    sized.push_back({caches[1].name, n});
  }
  s.footprints.push_back(
      {"registers", block.rows * block.vectors + block.vectors + 1});
  std::vector<int64_t> sizes(nest.extents.size(), 0);
  sizes[k] = kc;
  sizes[m] = mc;
  sizes[n] = nc;
  for (auto it = sized.rbegin(); it != sized.rend(); ++it) {
    if (s.tiles.empty() || s.tiles.back().memory != it->first)
      s.tiles.push_back(
          {it->first, std::vector<int64_t>(nest.extents.size(), 0)});
    s.tiles.back().sizes[it->second] = sizes[it->second];
  }
  // Loop order: other loops (batch, further reductions) outermost, then n,
  // k, m: a packed B panel stays across the m loop.
  auto isWindow = [&](int64_t d) {
    return std::find(window.begin(), window.end(), d) != window.end();
  };
  for (size_t d = 0; d < nest.extents.size(); ++d)
    if (int64_t(d) != n && int64_t(d) != m && int64_t(d) != k) {
      s.tileOrder.push_back(int64_t(d));
      if (!isWindow(int64_t(d)))
        s.registerOrder.push_back(int64_t(d));
    }
  s.tileOrder.insert(s.tileOrder.end(), {n, k, m});
  // Register tiles: n, m, then the window and k innermost so accumulators
  // stay in registers.
  s.registerOrder.insert(s.registerOrder.end(), {n, m});
  s.registerOrder.insert(s.registerOrder.end(), window.begin(), window.end());
  s.registerOrder.push_back(k);
  // B is packed: its register tile loads nr-wide vectors from kc rows,
  // reused by every register tile along m, so the packed panel is one
  // contiguous block the innermost cache keeps (rows of a large matrix
  // would sit a power-of-two stride apart and collide in a few sets). A's
  // register tile broadcasts one element from each of its mr rows per k
  // step: read in place, each row's k tile is whole cache lines that the
  // hardware streams ahead of the multiply-adds, and the n tiles after the
  // first find the part's A in the outermost cache. A packed copy reads the
  // same lines once per n tile, in a pass of its own that no arithmetic
  // overlaps (8% of a 1024^3 GEMM on one core; without it the bench GEMMs
  // ran 5-12% faster). But when the part's A exceeds half the outermost
  // cache, every n tile reads it from memory again, and a few broadcast
  // streams cannot hide that latency where a bulk copy of whole rows can
  // (4096^3 on one core: 0.87 of the anchors packed, 0.67 in place). A
  // windowed A (a convolution's input) is read in place: its rows overlap.
  // Nor is A packed when one n tile covers the part's n: A is then read
  // once, and a copy only adds a pass (2500x64x2500 packed its 25 MB A).
  // Tiles of dynamic extent are padded by copies anyway (S4).
  bool aInPlace = !aFromMemory || nc >= partExtent(n);
  s.promote = a->windowed() || aInPlace ? std::vector<int64_t>{bIndex}
                                        : std::vector<int64_t>{aIndex, bIndex};
  // Nor is B packed when reading it takes at least half as long as the
  // part's product: the copy is a pass over B at the memory's rate that
  // nothing overlaps, where the register tiles reading B in place overlap
  // its transfer with their arithmetic. That is m <= element bytes x flops
  // per byte of memory traffic (about 80 rows on this host), or one
  // register tile along m: a matrix times a vector, a decoding step's few
  // tokens (1x4096x4096 8.8 -> 15.7 GFLOP/s, 31x2000x997 124 -> 185,
  // 64x2000x1024 184 -> 217; at 128 rows and more the packed panel's
  // contiguous rows pay, and a ragged n would pad B's last tile on every
  // use, so the rates rule wants whole vectors along n).
  auto [flops, bandwidth] = ratesOf(chip, eb);
  bool fewRows = partExtent(m) <= mr ||
                 (flops > 0 && bandwidth > 0 && partExtent(n) % width == 0 &&
                  bigN % width == 0 &&
                  double(partExtent(m)) <= double(eb) * flops / bandwidth);
  bool bInPlace =
      fewRows && !a->windowed() && !b->dims.empty() && b->dims.back() == n;
  if (bInPlace)
    llvm::erase(s.promote, bIndex);
  return true;
}
} // namespace

Schedule strata::chooseSchedule(const LoopNest &nest,
                                const hw::Description &chip) {
  Schedule s;
  size_t loops = nest.extents.size();
  s.registerTile.assign(loops, 1);
  hw::VectorUnit unit = chip.vector.value_or(hw::VectorUnit{});
  if (!chip.vector) {
    unit.widthBits = nest.elementBytes * 8;
    unit.level = chip.compute.empty() ? "" : chip.compute.back().name;
  }
  int64_t width =
      std::max<int64_t>(1, unit.widthBits / (8 * nest.elementBytes));
  s.vectorWidth = width;
  int64_t parts = unit.level.empty() ? 1 : chip.totalUnits(unit.level);
  predict(nest, chip, s);

  // The vectorized loop: the output's contiguous loop when it is parallel,
  // else the contiguous loop of an input when it is a reduction (a row sum).
  // The output's loop is vectorized if some input of the highest rank is
  // contiguous along it too, or if no input is contiguous along a reduction
  // loop (a row sum's
  // output loop runs down the input's columns: its reduction is vectorized).
  const LoopNest::Operand *out = firstOutput(nest);
  if (out && !out->dims.empty() && out->dims.back() >= 0 &&
      !nest.reduction[out->dims.back()]) {
    int64_t candidate = out->dims.back();
    // Only inputs of the highest rank count: a broadcast operand (a row's
    // mean in a layernorm) is small, whatever its layout.
    size_t maxRank = 0;
    for (const LoopNest::Operand &op : nest.operands)
      if (!op.output)
        maxRank = std::max(maxRank, op.dims.size());
    // An input that takes part in a reduction counts whatever its rank: the
    // filter of a convolution term (c x f) beside its image (n x h x w x c).
    auto reduces = [&](const LoopNest::Operand &op) {
      return std::any_of(op.dims.begin(), op.dims.end(), [&](int64_t d) {
        return d >= 0 && nest.reduction[d];
      });
    };
    bool inputAlong = false, inputAcross = false;
    for (const LoopNest::Operand &op : nest.operands) {
      if (op.output || op.dims.empty())
        continue;
      if (op.dims.back() == candidate &&
          (op.dims.size() == maxRank || reduces(op)))
        inputAlong = true;
      else if (op.dims.back() >= 0 && nest.reduction[op.dims.back()])
        inputAcross = true;
    }
    // An output loop shorter than a vector (a matrix times a vector: one
    // column) would fill a vector with padding; a long contiguous reduction
    // is vectorized instead.
    bool shortCandidate = nest.extents[candidate] >= 0 &&
                          nest.extents[candidate] < width && inputAcross;
    if ((inputAlong || !inputAcross) && !shortCandidate)
      s.vectorDim = candidate;
  }
  if (s.vectorDim < 0)
    for (const LoopNest::Operand &op : nest.operands)
      if (!op.output && !op.dims.empty() && op.dims.back() >= 0 &&
          nest.reduction[op.dims.back()]) {
        s.vectorDim = op.dims.back();
        s.partialReduction = true;
        break;
      }
  if (loops == 0)
    return s;
  if (scheduleContraction(nest, chip, unit, width, parts, s))
    return s;

  // Elementwise and reductions: each element is touched once, so no cache
  // tiles; the register tile along the vector loop holds enough independent
  // vectors to cover the latency, within the registers each operand needs.
  s.kind = s.partialReduction ? "reduction" : "elementwise";
  for (size_t d = 0; d < loops; ++d)
    if (nest.reduction[d])
      s.kind = "reduction";
  if (s.vectorDim >= 0) {
    int64_t needed = std::max<int64_t>(unit.fmaPipes, 1) *
                     std::max<int64_t>(unit.fmaLatencyCycles, 1);
    int64_t perVector = int64_t(nest.operands.size()) + 1;
    int64_t unroll = std::clamp<int64_t>(unit.registers / perVector, 1, needed);
    // A power of two, for the same reason as the register block.
    int64_t pow2 = 1;
    while (pow2 * 2 <= unroll)
      pow2 *= 2;
    s.registerTile[s.vectorDim] =
        std::min(pow2 * width, roundUp(nest.extents[s.vectorDim], width));
    // A transposing op (an input contiguous along another parallel loop)
    // takes a square tile of a vector's width on both loops: it reads whole
    // lines of the input and writes whole lines of the output, and the
    // transposition stays in registers. One output vector at a time read a
    // column of the input, an element per line (4096^2: 1 GB/s).
    // Only an input that also runs along the vector loop is transposed; a
    // broadcast operand (a row's sum, indexed by the row alone) is not.
    if (!s.partialReduction && s.kind == "elementwise")
      for (const LoopNest::Operand &op : nest.operands) {
        int64_t d = op.dims.empty() ? -1 : op.dims.back();
        if (op.output || d < 0 || d == s.vectorDim || nest.reduction[d] ||
            std::find(op.dims.begin(), op.dims.end(), s.vectorDim) ==
                op.dims.end() ||
            nest.extents[d] < width || nest.extents[s.vectorDim] < width)
          continue;
        s.registerTile[s.vectorDim] = width;
        s.registerTile[d] = width;
        break;
      }
    // A vector loop shorter than the unroll (rows of 32) leaves the rest to
    // the innermost other parallel loop: a register tile of several rows,
    // whose reductions are independent chains. One row at a time, a
    // softmax over rows of 32 waited on each row's horizontal reductions
    // (half the memory's rate).
    int64_t along = s.registerTile[s.vectorDim];
    bool single = true;
    for (size_t d = 0; d < loops; ++d)
      single &= int64_t(d) == s.vectorDim || s.registerTile[d] == 1;
    if (single && along < pow2 * width)
      for (int64_t d = int64_t(loops) - 1; d >= 0; --d) {
        if (d == s.vectorDim || nest.reduction[d] || nest.extents[d] < 2)
          continue;
        s.registerTile[d] = std::min(pow2 * width / along, nest.extents[d]);
        break;
      }
    // A reduction down the rows (the vector loop is an output loop, and
    // the input reaches the reduction through an outer dim: a column sum)
    // kept one register tile of accumulators while it walked down all the
    // rows, a few lines per row a row apart (4096^2: 15 GB/s). Instead a
    // cache tile of r rows along the innermost such reduction loop comes
    // outermost: each register tile (one row of vectors) sums the tile's r
    // rows in its accumulators, loaded and stored once per r rows, and the
    // input streams in r contiguous runs. r is the operations the unit
    // needs in flight (the same count as the unroll above).
    std::vector<CacheLevel> caches = cacheLevels(chip, unit.level);
    if (!s.partialReduction && s.kind == "reduction" && !caches.empty())
      for (const LoopNest::Operand &op : nest.operands) {
        if (op.output || op.dims.empty() || op.dims.back() != s.vectorDim)
          continue;
        int64_t across = -1;
        for (auto it = op.dims.rbegin(); it != op.dims.rend(); ++it)
          if (*it >= 0 && nest.reduction[*it]) {
            across = *it;
            break;
          }
        if (across < 0 || nest.extents[across] < 2)
          continue;
        int64_t rows = std::min<int64_t>(needed, nest.extents[across]);
        s.tiles = {{caches.front().name, std::vector<int64_t>(loops, 0)}};
        s.tiles.front().sizes[across] = rows;
        s.tileOrder = {across};
        // The rows innermost among the register loops: each tile's
        // accumulators stay in registers across them.
        for (size_t d = 0; d < loops; ++d)
          if (int64_t(d) != across)
            s.registerOrder.push_back(int64_t(d));
        s.registerOrder.push_back(across);
        break;
      }
  }
  if (s.registerOrder.empty())
    for (size_t d = 0; d < loops; ++d)
      s.registerOrder.push_back(int64_t(d));
  chooseGrid(nest, unit.level, parts, s);
  return s;
}

int64_t strata::chooseRowBlock(const hw::Description &chip, double rowBytes,
                               int64_t registerRows, int64_t rows) {
  if (!chip.vector)
    return 1;
  std::vector<CacheLevel> levels = cacheLevels(chip, chip.vector->level);
  if (levels.empty() || rowBytes <= 0)
    return std::max<int64_t>(std::min<int64_t>(rows, 1), 1);
  // The innermost level keeps the operands one register tile streams; the
  // next one holds the block's intermediates, read once per pass over them.
  const CacheLevel &level = levels.size() > 1 ? levels[1] : levels[0];
  int64_t fit = int64_t(level.bytes / 2 / rowBytes);
  registerRows = std::max<int64_t>(registerRows, 1);
  if (fit >= registerRows)
    fit = fit / registerRows * registerRows;
  return std::max<int64_t>(1, std::min(fit, std::max<int64_t>(rows, 1)));
}
