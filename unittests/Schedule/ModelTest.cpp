//===- ModelTest.cpp - The analytical schedule model ----------------------===//
//
// The expected values are derived in each test from the description's fields
// by the rules documented in Schedule/Model.h and Model.cpp; the comments
// give the hand computation for the shipped chips.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "strata/HW/Model.h"
#include "strata/Schedule/Model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace strata;
using namespace strata::test;

namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

hw::VectorUnit unit(int64_t widthBits, int64_t registers, int64_t pipes,
                    int64_t latency) {
  hw::VectorUnit u;
  u.widthBits = widthBits;
  u.registers = registers;
  u.fmaPipes = pipes;
  u.fmaLatencyCycles = latency;
  u.level = "core";
  return u;
}

bool isPowerOfTwo(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// Registers a block uses: the accumulators, one register per vector of the
/// operand loaded along the vector loop, one broadcast of the other.
int64_t registersUsed(const RegisterBlock &b) {
  return b.rows * b.vectors + b.vectors + 1;
}

/// Multiply-adds per loaded element: rows * vectors / (rows + vectors).
double reuse(int64_t rows, int64_t vectors) {
  return double(rows * vectors) / double(rows + vectors);
}

/// Bytes of memory level `name` one instance of the vector unit's level may
/// use: a level owned by a coarser level (an L3 per chip) is shared among
/// the vector units under its owner.
double capacityPerUnit(const hw::Description &chip, const std::string &name) {
  const hw::MemoryLevel *mem = chip.findMemory(name);
  EXPECT_NE(mem, nullptr) << name;
  if (!mem)
    return 0;
  double units = double(chip.totalUnits(chip.vector->level));
  double owners = double(chip.totalUnits(mem->owner));
  return double(mem->capacityBytes) * std::min(1.0, owners / units);
}

/// Equal tiles that cover `extent` with the least padding: as many tiles as
/// `tile` needs, each the extent over that count rounded up to `multiple`.
int64_t balance(int64_t extent, int64_t tile, int64_t multiple) {
  return roundUp(ceilDiv(extent, ceilDiv(extent, tile)), multiple);
}

/// The tile sizes a matmul (loops m, n, k) should get on `chip`.
struct MatmulPlan {
  RegisterBlock block;
  int64_t mr = 0, nr = 0; // register tile on m and n
  int64_t parts = 0;      // instances of the vector unit's level
  int64_t gridM = 0;      // m extent per instance
  int64_t partM = 0;      // m and n extents one instance covers
  int64_t partN = 0;
  // The tiles the capacities give, before balancing: the footprints.
  int64_t kcFit = 0; // l1 tile on k
  int64_t ncFit = 0; // l2 tile on n
  int64_t mcFit = 0; // l2 tile on m
  // The tiles after balancing (and nc/nr made odd): the schedule's tiles.
  int64_t kc = 0, mc = 0, nc = 0;
  // A packed too: the part's A exceeds half the outermost cache.
  bool packA = false;
  // The n tile when the output streams (several m tiles), before balancing.
  int64_t ncWide = 0;
  bool streams = false; // the output tile is not kept in L2
};

MatmulPlan planMatmul(const hw::Description &chip, int64_t M, int64_t N,
                      int64_t K) {
  const int64_t eb = 4; // f32
  MatmulPlan p;
  const hw::VectorUnit &u = *chip.vector;
  int64_t width = u.widthBits / (8 * eb);
  p.block = chooseRegisterBlock(u, M, ceilDiv(N, width));
  p.mr = p.block.rows;
  p.nr = p.block.vectors * width;
  p.parts = chip.totalUnits(u.level);
  // The grid splits m (it has more register tiles than n in these tests):
  // equal parts when m divides evenly, else whole register tiles per part.
  EXPECT_GT(ceilDiv(M, p.mr), ceilDiv(N, p.nr));
  p.gridM = M % p.parts == 0 && M / p.parts >= p.mr
                ? M / p.parts
                : roundUp(ceilDiv(M, p.parts), p.mr);
  p.partM = p.parts > 1 ? p.gridM : M;
  p.partN = N;
  // L1 keeps a kc x nr panel of B and an mr x kc panel of A in three
  // quarters of it; k's tile is the largest divisor of K down to half of
  // that, when there is one (no partial tile), else balanced.
  p.kcFit = std::clamp<int64_t>(int64_t(capacityPerUnit(chip, "l1") * 3 / 4) /
                                    ((p.nr + p.mr) * eb),
                                1, K);
  p.kc = balance(K, p.kcFit, 1);
  for (int64_t d = p.kcFit; d * 2 >= p.kcFit; --d)
    if (K % d == 0) {
      p.kc = d;
      break;
    }
  // L2 keeps the mc x nc output tile, the kc x nc panel of B and the mc x kc
  // block of A in half of it: mc*nc + kc*(mc + nc) <= budget elements. With
  // mc = nc = side: side^2 + 2 kc side = budget. nc is side in whole
  // register tiles, balanced, then made an odd number of register tiles
  // (one more); mc takes what is left, in whole register tiles, balanced.
  double budget = capacityPerUnit(chip, "l2") / 2 / double(eb);
  double side = -double(p.kc) + std::sqrt(double(p.kc) * p.kc + budget);
  p.ncFit = std::clamp<int64_t>(int64_t(side) / p.nr * p.nr, p.nr,
                                roundUp(p.partN, p.nr));
  auto nTile = [&](int64_t fit) {
    int64_t nc = balance(p.partN, fit, p.nr);
    EXPECT_EQ(ceilDiv(p.partN, nc), ceilDiv(p.partN, fit));
    if (nc / p.nr > 1 && (nc / p.nr) % 2 == 0)
      nc += nc < roundUp(p.partN, p.nr) ? p.nr : -p.nr;
    return nc;
  };
  p.nc = nTile(p.ncFit);
  int64_t rows = int64_t((budget - double(p.kc * p.nc)) / double(p.nc + p.kc));
  double outermost = 0;
  for (const hw::MemoryLevel &mem : chip.memory)
    if (mem.kind == "cache")
      outermost = std::max(outermost, capacityPerUnit(chip, mem.name));
  p.packA = double(p.partM * K * eb) > outermost / 2;
  // Several m tiles with A packed from DRAM: the output streams through L2
  // once per k tile, which then holds kc * (mc + nc), split so that
  // nc / mc is the square root of DRAM's flops per byte over L2's; nc at
  // most what keeps the part's output columns in a quarter of the
  // outermost cache, and no narrower than the tile above.
  hw::DerivedModel model = hw::deriveModel(chip);
  double dram = 0, l2 = 0;
  for (const hw::MemoryModel &mem : model.memory) {
    if (mem.name == "l2")
      l2 = mem.balanceF32;
    if (mem.kind == "dram")
      dram = mem.balanceF32;
  }
  if (rows < p.partM && p.packA) {
    double span = budget / double(p.kc), ratio = std::sqrt(dram / l2);
    int64_t cap = int64_t(outermost / 4 / double(p.partM * eb));
    p.ncWide = std::min<int64_t>(int64_t(span * ratio / (1 + ratio)), cap);
    int64_t wide = nTile(std::clamp<int64_t>(p.ncWide / p.nr * p.nr, p.nr,
                                             roundUp(p.partN, p.nr)));
    while (wide > cap && wide > 2 * p.nr)
      wide -= 2 * p.nr;
    p.nc = std::max(p.nc, wide);
    rows = int64_t(span) - p.nc;
    p.streams = true;
  }
  p.mcFit =
      std::clamp<int64_t>(rows / p.mr * p.mr, p.mr, roundUp(p.partM, p.mr));
  p.mc = balance(p.partM, p.mcFit, p.mr);
  EXPECT_EQ(ceilDiv(p.partM, p.mc), ceilDiv(p.partM, p.mcFit));
  return p;
}

int64_t footprint(const Schedule &s, const std::string &level) {
  for (const auto &[name, bytes] : s.footprints)
    if (name == level)
      return bytes;
  return -1;
}

/// Bytes of the data each cache level keeps for tiles kc, mc, nc.
int64_t l1Bytes(const MatmulPlan &p, int64_t kc) {
  return kc * (p.nr + p.mr) * 4;
}
int64_t l2Bytes(int64_t kc, int64_t mc, int64_t nc, bool streams = false) {
  return ((streams ? 0 : mc * nc) + kc * (mc + nc)) * 4;
}

void expectMatmulSchedule(const hw::Description &chip, const Schedule &s,
                          const MatmulPlan &p, int64_t M) {
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_EQ(s.vectorWidth, chip.vector->widthBits / 32);
  EXPECT_FALSE(s.partialReduction);
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{p.mr, p.nr, 1}));
  // Register loops n, m, then k innermost: the accumulators stay.
  EXPECT_EQ(s.registerOrder, (std::vector<int64_t>{1, 0, 2}));
  // Tile loops n, k, m: a packed k x n panel of B stays across m.
  EXPECT_EQ(s.tileOrder, (std::vector<int64_t>{1, 2, 0}));
  // B packed; A read in place unless it exceeds half the outermost cache.
  std::vector<int64_t> packed = {1};
  if (p.packA)
    packed = {0, 1};
  EXPECT_EQ(s.promote, packed);

  // Cache tiles, outermost level first: l2 tiles m and n, l1 tiles k; the
  // l3 is not used for tiles.
  ASSERT_EQ(s.tiles.size(), 2u);
  EXPECT_EQ(s.tiles[0].memory, "l2");
  EXPECT_EQ(s.tiles[0].sizes, (std::vector<int64_t>{p.mc, p.nc, 0}));
  EXPECT_EQ(s.tiles[1].memory, "l1");
  EXPECT_EQ(s.tiles[1].sizes, (std::vector<int64_t>{0, 0, p.kc}));
  EXPECT_EQ(p.mc % p.mr, 0);
  EXPECT_EQ(p.nc % p.nr, 0);
  EXPECT_TRUE(p.nc == p.nr || (p.nc / p.nr) % 2 == 1) << p.nc;

  // The grid: m over the instances of the vector unit's level, all of m
  // covered; equal static parts when m divides evenly, else whole register
  // tiles per instance, the smallest such tile.
  EXPECT_EQ(s.gridLevel, chip.vector->level);
  EXPECT_EQ(s.grid, (std::vector<int64_t>{p.gridM, 0, 0}));
  EXPECT_GE(s.grid[0] * p.parts, M);
  if (M % p.parts == 0) {
    EXPECT_EQ(s.grid[0] * p.parts, M);
  } else {
    EXPECT_EQ(s.grid[0] % p.mr, 0);
    EXPECT_LT((s.grid[0] - p.mr) * p.parts, M);
  }

  // What each level keeps fits the part the model sized it for.
  double l1Part = capacityPerUnit(chip, "l1") * 3 / 4;
  double l2Half = capacityPerUnit(chip, "l2") / 2;
  EXPECT_EQ(footprint(s, "l1"), l1Bytes(p, p.kc));
  EXPECT_LE(footprint(s, "l1"), l1Part);
  EXPECT_EQ(footprint(s, "l2"), l2Bytes(p.kc, p.mc, p.nc, p.streams));
  EXPECT_LE(footprint(s, "l2"), l2Half);
  EXPECT_EQ(footprint(s, "l3"), -1);
  EXPECT_LE(p.kc, p.kcFit);
  EXPECT_LE(p.mc, p.mcFit);
  EXPECT_EQ(footprint(s, "registers"), registersUsed(p.block));
  EXPECT_LE(footprint(s, "registers"), chip.vector->registers);
}

} // namespace

//===----------------------------------------------------------------------===//
// chooseRegisterBlock
//===----------------------------------------------------------------------===//

TEST(RegisterBlock, Avx512) {
  // 32 registers, 2 pipes x latency 4: 8 independent accumulators needed.
  // Feasible blocks (rows * vectors + vectors + 1 <= 32), best rows each:
  //   vectors 1: rows 30, reuse 30/31 = 0.97
  //   vectors 2: rows 14, reuse 28/16 = 1.75
  //   vectors 4: rows  6, reuse 24/10 = 2.40  <- 24 accumulators >= 8
  //   vectors 8: rows  2, reuse 16/10 = 1.60
  //   vectors 16: none (16 + 16 + 1 > 32)
  RegisterBlock b = chooseRegisterBlock(unit(512, 32, 2, 4), 1000, 1000);
  EXPECT_EQ(b.rows, 6);
  EXPECT_EQ(b.vectors, 4);
  EXPECT_EQ(registersUsed(b), 29);
}

TEST(RegisterBlock, Avx2) {
  // 16 registers, 2 pipes x latency 5: 10 accumulators needed.
  //   vectors 1: rows 14, reuse 14/15 = 0.93
  //   vectors 2: rows  6, reuse 12/8  = 1.50  <- 12 accumulators >= 10
  //   vectors 4: rows  2, reuse  8/6  = 1.33, and 8 < 10 accumulators
  RegisterBlock b = chooseRegisterBlock(unit(256, 16, 2, 5), 1000, 1000);
  EXPECT_EQ(b.rows, 6);
  EXPECT_EQ(b.vectors, 2);
}

TEST(RegisterBlock, Limits) {
  hw::VectorUnit avx512 = unit(512, 32, 2, 4);
  // One row: the latency needs 8 accumulators, so 8 vectors (1*8+8+1 = 17
  // registers); fewer vectors leave pipes idle, 16 do not fit.
  RegisterBlock oneRow = chooseRegisterBlock(avx512, 1, 1000);
  EXPECT_EQ(oneRow.rows, 1);
  EXPECT_EQ(oneRow.vectors, 8);
  // One vector: as many rows as fit, 30 * 1 + 1 + 1 = 32.
  RegisterBlock oneVector = chooseRegisterBlock(avx512, 1000, 1);
  EXPECT_EQ(oneVector.vectors, 1);
  EXPECT_EQ(oneVector.rows, 30);
  // Both limits: the 1 x 1 block.
  RegisterBlock one = chooseRegisterBlock(avx512, 1, 1);
  EXPECT_EQ(one.rows, 1);
  EXPECT_EQ(one.vectors, 1);
  // A limit larger than the optimum changes nothing; a vector limit that is
  // not a power of two allows the powers of two below it.
  RegisterBlock three = chooseRegisterBlock(avx512, 1000, 3);
  EXPECT_EQ(three.vectors, 2);
  EXPECT_EQ(three.rows, 14);
}

// Over many units and limits: the block fits the registers and the limits,
// its vector count is a power of two, and when it covers the FMA latency no
// other feasible block that covers it reuses loaded elements more.
TEST(RegisterBlock, FeasibleAndOptimal) {
  for (int64_t registers : {3, 8, 16, 24, 32, 64})
    for (int64_t pipes : {1, 2, 4})
      for (int64_t latency : {1, 3, 4, 5, 8})
        for (int64_t maxRows : {1, 2, 5, 8, 100})
          for (int64_t maxVectors : {1, 2, 3, 8, 100}) {
            SCOPED_TRACE(testing::Message()
                         << "registers " << registers << ", pipes " << pipes
                         << ", latency " << latency << ", maxRows " << maxRows
                         << ", maxVectors " << maxVectors);
            RegisterBlock b = chooseRegisterBlock(
                unit(512, registers, pipes, latency), maxRows, maxVectors);
            ASSERT_GE(b.rows, 1);
            ASSERT_LE(b.rows, maxRows);
            ASSERT_LE(b.vectors, maxVectors);
            ASSERT_TRUE(isPowerOfTwo(b.vectors));
            ASSERT_LE(registersUsed(b), registers);
            int64_t needed = pipes * latency;
            if (b.rows * b.vectors < needed)
              continue;
            for (int64_t v = 1; v <= maxVectors; v *= 2)
              for (int64_t r = 1; r <= maxRows; ++r)
                if (r * v + v + 1 <= registers && r * v >= needed)
                  ASSERT_LE(reuse(r, v), reuse(b.rows, b.vectors) + 1e-9)
                      << r << " x " << v << " is better than " << b.rows
                      << " x " << b.vectors;
          }
}

//===----------------------------------------------------------------------===//
// chooseSchedule: contractions
//===----------------------------------------------------------------------===//

TEST(ScheduleModel, MatmulAvx512) {
  hw::Description chip = loadShipped("host-x86-avx512");
  ASSERT_TRUE(chip.vector.has_value());
  const int64_t M = 4096, N = 4096, K = 4096;
  // 16 f32 lanes, register block 6 x 4 vectors: mr 6, nr 64.
  // 2 cores: m split 4096 / 2 = 2048, equal parts; n whole.
  // l1 48 KiB per core: 36864 / ((64 + 6) * 4) = 131; the largest divisor
  //   of 4096 from 66 to 131: kc 128.
  // l2 1 MiB per core: budget 524288 / 4 = 131072 elements;
  //   side = -128 + sqrt(128^2 + 131072) = -128 + 384 = 256;
  //   n 4096 in 16 tiles of 256 -> 256, 4 register tiles: even, so 320;
  //   mc: (131072 - 128 * 320) / (320 + 128) = 90112 / 448 = 201 rows,
  //   fewer than the part's 2048: the output streams. A's part (32 MiB)
  //   exceeds half the l3's 16 MiB share, so it is packed and re-read from
  //   DRAM (9.96 flops per byte; l2 1.0): nc / mc = sqrt(9.96) = 3.16 of
  //   131072 / 128 = 1024: nc 777, capped at 4 MiB / (2048 * 4) = 512 (the
  //   part's output columns in a quarter of the l3's 16 MiB share); n 4096
  //   in 8 tiles of 512, 8 register tiles: even, so 576, over the cap:
  //   448 (7). mc: 1024 - 448 = 576; m 2048 in 4 tiles of 576 -> 512 ->
  //   516. Footprint 128 * (516 + 448) * 4 = 493568 <= 524288.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.mr, 6);
  EXPECT_EQ(p.nr, 64);
  EXPECT_EQ(p.gridM, 2048);
  EXPECT_EQ(p.kcFit, 131);
  EXPECT_EQ(p.ncFit, 256);
  EXPECT_TRUE(p.streams);
  EXPECT_EQ(p.ncWide, 512);
  EXPECT_EQ(p.mcFit, 576);
  EXPECT_EQ(l2Bytes(p.kc, p.mc, p.nc, true), 493568);
  EXPECT_EQ(p.kc, 128);
  EXPECT_EQ(p.mc, 516);
  EXPECT_EQ(p.nc, 448);
  expectMatmulSchedule(chip, chooseSchedule(matmulNest(M, N, K), chip), p, M);
}

TEST(ScheduleModel, AIsPackedOnlyWhenTheOutermostCacheCannotKeepIt) {
  // A's register tile broadcasts from its rows in place while the part's A
  // fits in half the outermost cache, whether one register tile covers n
  // (a 1x1 convolution's 64 output channels) or many do, and whatever A's
  // row stride. B is packed unless one register tile covers m (below).
  hw::Description chip = loadShipped("host-x86-avx512");
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{3136, 64, 256},
                         {3136, 512, 256},
                         {256, 1024, 4096},
                         {1000, 1000, 1000}}) {
    Schedule s = chooseSchedule(matmulNest(m, n, k), chip);
    EXPECT_EQ(s.promote, (std::vector<int64_t>{1}))
        << m << "x" << n << "x" << k;
  }
  // 4096 x 8192 per core, 128 MiB: each n tile would read it from memory
  // again, so it is packed.
  Schedule big = chooseSchedule(matmulNest(8192, 512, 8192), chip);
  EXPECT_EQ(big.promote, (std::vector<int64_t>{0, 1}));
  // As large, but 64 columns: one n tile reads A once, in place.
  Schedule narrow = chooseSchedule(matmulNest(8192, 64, 8192), chip);
  EXPECT_EQ(narrow.promote, (std::vector<int64_t>{1}));
}

TEST(ScheduleModel, BIsReadInPlaceForFewRows) {
  // This chip: 448 GFLOP/s over 45 GB/s, 9.96 f32 flops per byte: reading
  // B takes at least half the product's time below 4 x 9.96 = 39.8 rows,
  // where each element of B is used a few times from the innermost cache
  // and a packed copy is a pass nothing overlaps. 1 or 6 rows (one
  // register tile) always; 31 rows with whole vectors along n; 48 rows,
  // or 31 with a ragged n (its last tile would be padded on every use),
  // pack B.
  hw::Description chip = loadShipped("host-x86-avx512");
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 4096},
                      {6, 4096},
                      {6, 1000},
                      {31, 2048}}) {
    Schedule s = chooseSchedule(matmulNest(m, n, 4096), chip);
    EXPECT_TRUE(s.promote.empty()) << m << "x" << n;
  }
  for (auto [m, n] : {std::pair<int64_t, int64_t>{48, 2048}, {31, 1000}}) {
    Schedule s = chooseSchedule(matmulNest(m, n, 4096), chip);
    EXPECT_EQ(s.promote, (std::vector<int64_t>{1})) << m << "x" << n;
  }
}

TEST(ScheduleModel, GridSplitsTheLoopThatLeavesPartsLessToRead) {
  // Two cores. 256 x 1024 x 4096: split along m each part reads half of A
  // and all of B (0.5 + 4 M elements); along n all of A and half of B
  // (1 + 2 M), under three quarters of 4.5 M: n, 512 columns each.
  hw::Description chip = loadShipped("host-x86-avx512");
  Schedule wide = chooseSchedule(matmulNest(256, 1024, 4096), chip);
  EXPECT_EQ(wide.grid, (std::vector<int64_t>{0, 512, 0}));
  // Square: as much to read either way; m (disjoint rows of A and C), in
  // equal parts: each part's extent is static.
  Schedule square = chooseSchedule(matmulNest(1024, 1024, 1024), chip);
  EXPECT_EQ(square.grid, (std::vector<int64_t>{512, 0, 0}));
  // m that does not divide evenly: whole register tiles per part, the last
  // part shorter.
  Schedule odd = chooseSchedule(matmulNest(1023, 1024, 1024), chip);
  EXPECT_EQ(odd.grid, (std::vector<int64_t>{516, 0, 0}));
  // A tall A and a narrow B: m.
  Schedule tall = chooseSchedule(matmulNest(4096, 64, 4096), chip);
  EXPECT_EQ(tall.grid, (std::vector<int64_t>{2048, 0, 0}));
  // n needs a register tile per part: 64 columns are one tile, so m.
  Schedule narrow = chooseSchedule(matmulNest(8, 64, 4096), chip);
  EXPECT_EQ(narrow.grid, (std::vector<int64_t>{6, 0, 0}));
}

TEST(ScheduleModel, MatmulAvx2) {
  hw::Description chip = loadShipped("host-x86-avx2");
  ASSERT_TRUE(chip.vector.has_value());
  const int64_t M = 4096, N = 4096, K = 4096;
  // 8 f32 lanes, register block 6 x 2 vectors: mr 6, nr 16.
  // 8 cores: m split 4096 / 8 = 512, equal parts; n whole.
  // l1 32 KiB per core: 24576 / ((16 + 6) * 4) = 279; the largest divisor
  //   of 4096 from 140 to 279: kc 256.
  // l2 256 KiB per core: budget 131072 / 4 = 32768 elements;
  //   side = -256 + sqrt(256^2 + 32768) = -256 + 313.5 = 57 -> 48, 3
  //   register tiles: odd, kept;
  //   mc: (32768 - 256 * 48) / (48 + 256) = 20480 / 304 = 67 rows, fewer
  //   than the part's 512: the output streams. A's part (8 MiB) exceeds
  //   half the l3's 1 MiB share: packed, re-read from DRAM (20 flops per
  //   byte; l2 1.0): nc / mc = sqrt(20) = 4.47 of 32768 / 256 = 128: nc
  //   104 (under the cap 256 KiB / (512 * 4) = 128) -> 96; n 4096 in 43 tiles
  //   of 96 -> 96, 6 register tiles: even, so 112. mc: 128 - 112 = 16 -> 12; m
  //   512 in 43 tiles of 12 -> 12. A is read from DRAM 37 times rather than 86.
  //   Footprint 256 * (12 + 112) * 4 = 126976 <= 131072.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.mr, 6);
  EXPECT_EQ(p.nr, 16);
  EXPECT_EQ(p.gridM, 512);
  EXPECT_EQ(p.kcFit, 279);
  EXPECT_EQ(p.ncFit, 48);
  EXPECT_TRUE(p.streams);
  EXPECT_EQ(p.ncWide, 104);
  EXPECT_EQ(p.mcFit, 12);
  EXPECT_EQ(l2Bytes(p.kc, p.mc, p.nc, true), 126976);
  EXPECT_EQ(p.kc, 256);
  EXPECT_EQ(p.mc, 12);
  EXPECT_EQ(p.nc, 112);
  expectMatmulSchedule(chip, chooseSchedule(matmulNest(M, N, K), chip), p, M);
}

TEST(ScheduleModel, RaggedColumnsEndInANarrowTile) {
  // 1000 columns are 15 whole register tiles of 64 and a ragged 40, which
  // S4 pads and copies in and back each k tile with the n tile around it.
  // The n tile is an odd number of register tiles that divides the 15, no
  // fewer than half of what the caches allow: 5 (320), so the padded tile
  // is the 40 columns alone (a 576-wide tile padded a 424-wide edge). 1100
  // columns (17 whole tiles, prime) have no such divisor: the n tile is not
  // widened past what the output tile kept in l2 gives (320, a 140-wide
  // padded edge, not 576 and a 524-wide one).
  hw::Description chip = loadShipped("host-x86-avx512");
  for (auto [n, tile] : {std::pair<int64_t, int64_t>{1000, 320}, {1100, 320}}) {
    Schedule s = chooseSchedule(matmulNest(1000, n, 1000), chip);
    ASSERT_FALSE(s.tiles.empty());
    EXPECT_EQ(s.tiles[0].sizes[1], tile) << n;
  }
}

TEST(ScheduleModel, SmallMatmulTilesAreClamped) {
  hw::Description chip = loadShipped("host-x86-avx512");
  const int64_t M = 100, N = 96, K = 40;
  // Register block 6 x 4 (N allows 6 vectors): mr 6, nr 64. m has 17
  // register tiles, n 2: m split over 2 cores, 50 each (equal parts).
  // k = 40 is below the l1 fit (87): the k tile is the whole loop.
  // l2: side = -40 + sqrt(40^2 + 131072) = -40 + 364.2 = 324 -> 320,
  //   clamped to n rounded up to register tiles: 128;
  //   mc: (131072 - 40 * 128) / (128 + 40) = 749 -> 744, clamped to 50
  //   rounded up to register tiles, 54 (one tile covers the part).
  // Balance: k 40, m 54 and n 96 -> 128 in one tile each; 128 is 2
  //   register tiles, even, so nc 64.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.gridM, 50);
  EXPECT_EQ(p.kcFit, K);
  EXPECT_EQ(p.ncFit, 128);
  EXPECT_EQ(p.mcFit, 54);
  EXPECT_EQ(p.kc, K);
  EXPECT_EQ(p.mc, 54);
  EXPECT_EQ(p.nc, 64);
  expectMatmulSchedule(chip, chooseSchedule(matmulNest(M, N, K), chip), p, M);
}

namespace {
hw::MemoryLevel *findLevel(hw::Description &chip, const std::string &name) {
  for (hw::MemoryLevel &mem : chip.memory)
    if (mem.name == name)
      return &mem;
  return nullptr;
}
} // namespace

TEST(ScheduleModel, MatmulFollowsTheL1Capacity) {
  hw::Description chip = loadShipped("host-x86-avx512");
  const int64_t M = 4096, N = 4096, K = 4096;
  Schedule base = chooseSchedule(matmulNest(M, N, K), chip);
  hw::MemoryLevel *l1 = findLevel(chip, "l1");
  ASSERT_NE(l1, nullptr);
  l1->capacityBytes *= 2;
  // 96 KiB: 73728 / 280 = 263 instead of 131; the largest divisor of 4096
  //   from 132 to 263: kc 256 instead of 128.
  // l2: side = -256 + sqrt(256^2 + 131072) = -256 + 443.4 = 187 -> 128, 2
  //   register tiles: even, so 192; (131072 - 256 * 192) / (192 + 256) =
  //   182 rows: the output streams (see MatmulAvx512). nc: 131072 / 256 =
  //   512 split 3.16 : 1 -> 388 (cap 512) -> 384; n 4096 in 11 tiles of 384 ->
  //   373
  //   -> 384, 6 register tiles: even, so 448. mc: 512 - 448 = 64 -> 60;
  //   m 2048 in 35 tiles of 60 -> 59 -> 60.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.kcFit, 263);
  EXPECT_EQ(p.ncFit, 128);
  EXPECT_EQ(p.ncWide, 388);
  EXPECT_EQ(p.mcFit, 60);
  EXPECT_EQ(p.kc, 256);
  EXPECT_EQ(p.mc, 60);
  EXPECT_EQ(p.nc, 448);
  Schedule bigger = chooseSchedule(matmulNest(M, N, K), chip);
  expectMatmulSchedule(chip, bigger, p, M);
  ASSERT_EQ(base.tiles.size(), 2u);
  ASSERT_EQ(bigger.tiles.size(), 2u);
  EXPECT_GT(bigger.tiles[1].sizes[2], base.tiles[1].sizes[2]);
  EXPECT_GT(footprint(bigger, "l1"), footprint(base, "l1"));
}

TEST(ScheduleModel, MatmulFollowsTheL2Capacity) {
  hw::Description chip = loadShipped("host-x86-avx512");
  const int64_t M = 4096, N = 4096, K = 4096;
  Schedule base = chooseSchedule(matmulNest(M, N, K), chip);
  hw::MemoryLevel *l2 = findLevel(chip, "l2");
  ASSERT_NE(l2, nullptr);
  l2->capacityBytes *= 2;
  // 2 MiB: kc stays 128; budget 262144 elements;
  //   side = -128 + sqrt(128^2 + 262144) = -128 + 527.8 = 399 -> 384;
  //   n 4096 in 11 tiles of 384 -> 373 -> 384, 6 register tiles: even, so
  //   448; (262144 - 128 * 448) / (448 + 128) = 355 rows: the output
  //   streams (see MatmulAvx512). nc: 262144 / 128 = 2048 split 3.16 : 1
  //   -> 1555, capped at 512 -> 448 as with 1 MiB. mc: 2048 - 448 = 1600
  //   -> 1596; m 2048 in 2 tiles of 1596 -> 1024 -> 1026.
  //   Footprint 128 * (1026 + 448) * 4 = 754688 <= 1048576.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.kcFit, 131);
  EXPECT_EQ(p.ncFit, 384);
  EXPECT_EQ(p.ncWide, 512);
  EXPECT_EQ(p.mcFit, 1596);
  EXPECT_EQ(l2Bytes(p.kc, p.mc, p.nc, true), 754688);
  EXPECT_EQ(p.kc, 128);
  EXPECT_EQ(p.mc, 1026);
  EXPECT_EQ(p.nc, 448);
  Schedule bigger = chooseSchedule(matmulNest(M, N, K), chip);
  expectMatmulSchedule(chip, bigger, p, M);
  ASSERT_EQ(base.tiles.size(), 2u);
  ASSERT_EQ(bigger.tiles.size(), 2u);
  // A larger m tile; n's stays at the l3's cap; the k tile follows the
  // l1 alone.
  EXPECT_GT(bigger.tiles[0].sizes[0], base.tiles[0].sizes[0]);
  EXPECT_EQ(bigger.tiles[0].sizes[1], base.tiles[0].sizes[1]);
  EXPECT_EQ(bigger.tiles[1].sizes[2], base.tiles[1].sizes[2]);
  EXPECT_GT(footprint(bigger, "l2"), footprint(base, "l2"));
}

TEST(ScheduleModel, MatmulFollowsTheRegisterFile) {
  hw::Description chip = loadShipped("host-x86-avx512");
  const int64_t M = 4096, N = 4096, K = 4096;
  Schedule base = chooseSchedule(matmulNest(M, N, K), chip);
  chip.vector->registers = 16;
  // 16 registers, 8 accumulators needed: 6 x 2 (12 accumulators, reuse 1.5)
  // beats 2 x 4 (8, reuse 1.33) and 14 x 1 (0.93); nr = 2 * 16 = 32.
  // l1: 36864 / ((32 + 6) * 4) = 242; the largest divisor of 4096 from 121
  //   to 242: kc 128.
  // l2: side = -128 + sqrt(128^2 + 131072) = -128 + 384 = 256, 8 register
  //   tiles: even, so 288; (131072 - 128 * 288) / (288 + 128) = 226 rows:
  //   the output streams (see MatmulAvx512): nc 777, capped at 512; 16
  //   register tiles: even, so 544, over the cap: 480. mc: 1024 - 480 =
  //   544 -> 540; m 2048 in 4 tiles of 540 -> 512 -> 516.
  MatmulPlan p = planMatmul(chip, M, N, K);
  EXPECT_EQ(p.mr, 6);
  EXPECT_EQ(p.nr, 32);
  EXPECT_EQ(p.kcFit, 242);
  EXPECT_EQ(p.ncFit, 256);
  EXPECT_EQ(p.ncWide, 512);
  EXPECT_EQ(p.mcFit, 540);
  EXPECT_EQ(p.kc, 128);
  EXPECT_EQ(p.mc, 516);
  EXPECT_EQ(p.nc, 480);
  Schedule fewer = chooseSchedule(matmulNest(M, N, K), chip);
  expectMatmulSchedule(chip, fewer, p, M);
  EXPECT_LT(fewer.registerTile[0] * fewer.registerTile[1],
            base.registerTile[0] * base.registerTile[1]);
  EXPECT_LT(footprint(fewer, "registers"), footprint(base, "registers"));
}

TEST(ScheduleModel, BatchMatmul) {
  hw::Description chip = loadShipped("host-x86-avx512");
  // C[b, m, n] += A[b, m, k] * B[b, k, n] over loops (b, m, n, k).
  LoopNest nest;
  nest.extents = {4, 512, 512, 512};
  nest.reduction = {false, false, false, true};
  nest.operands = {{{0, 1, 3}, false}, {{0, 3, 2}, false}, {{0, 1, 2}, true}};
  Schedule s = chooseSchedule(nest, chip);
  RegisterBlock block = chooseRegisterBlock(*chip.vector, 512, 512 / 16);
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.vectorDim, 2);
  EXPECT_EQ(s.registerTile,
            (std::vector<int64_t>{1, block.rows, block.vectors * 16, 1}));
  // The batch loop outermost, then n, k, m.
  EXPECT_EQ(s.tileOrder, (std::vector<int64_t>{0, 2, 3, 1}));
  EXPECT_EQ(s.registerOrder, (std::vector<int64_t>{0, 2, 1, 3}));
  EXPECT_EQ(s.promote, (std::vector<int64_t>{1}));
}

//===----------------------------------------------------------------------===//
// chooseSchedule: elementwise ops and reductions
//===----------------------------------------------------------------------===//

namespace {
/// The register tile along the vector loop of an elementwise op: enough
/// independent vectors to cover pipes x latency, at most registers /
/// (operands + 1), rounded down to a power of two.
int64_t elementwiseTile(const hw::VectorUnit &u, int64_t operands,
                        int64_t extent) {
  int64_t width = u.widthBits / 32;
  int64_t unroll = std::clamp<int64_t>(u.registers / (operands + 1), 1,
                                       u.fmaPipes * u.fmaLatencyCycles);
  int64_t pow2 = 1;
  while (pow2 * 2 <= unroll)
    pow2 *= 2;
  return std::min(pow2 * width, roundUp(extent, width));
}
} // namespace

TEST(ScheduleModel, ElementwiseAvx512) {
  hw::Description chip = loadShipped("host-x86-avx512");
  // 3 operands: 32 / 4 = 8 registers per operand, 8 accumulators needed: 8
  // vectors of 16 = 128 (the lit test cpu-vector-width.mlir agrees).
  Schedule s = chooseSchedule(elementwiseNest(1024, 1024, 2), chip);
  EXPECT_EQ(elementwiseTile(*chip.vector, 3, 1024), 128);
  EXPECT_EQ(s.kind, "elementwise");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_EQ(s.vectorWidth, 16);
  EXPECT_FALSE(s.partialReduction);
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{1, 128}));
  EXPECT_TRUE(s.tiles.empty());
  EXPECT_TRUE(s.promote.empty());
  // Rows have the most register tiles: split over the 2 cores.
  EXPECT_EQ(s.gridLevel, "core");
  EXPECT_EQ(s.grid, (std::vector<int64_t>{512, 0}));
}

// A transpose out[i, j] = in[j, i] (the input contiguous along i) takes a
// square register tile of a vector's width: 16 x 16 with AVX-512, 8 x 8
// with AVX2. A row's broadcast operand (indexed by the row alone) is no
// transpose.
TEST(ScheduleModel, TransposeTakesASquareRegisterTile) {
  LoopNest nest;
  nest.extents = {4096, 4096};
  nest.reduction = {false, false};
  nest.operands = {{{1, 0}, false}, {{0, 1}, true}};
  Schedule wide = chooseSchedule(nest, loadShipped("host-x86-avx512"));
  EXPECT_EQ(wide.kind, "elementwise");
  EXPECT_EQ(wide.vectorDim, 1);
  EXPECT_EQ(wide.registerTile, (std::vector<int64_t>{16, 16}));
  Schedule narrow = chooseSchedule(nest, loadShipped("host-x86-avx2"));
  EXPECT_EQ(narrow.registerTile, (std::vector<int64_t>{8, 8}));
  nest.operands = {{{0, 1}, false}, {{0}, false}, {{0, 1}, true}};
  Schedule broadcast = chooseSchedule(nest, loadShipped("host-x86-avx512"));
  EXPECT_EQ(broadcast.registerTile[0], 1);
}

TEST(ScheduleModel, ColumnSumTakesRowsInCacheTiles) {
  // out[j] += x[i][j]: the vector loop is j, the reduction i runs down the
  // rows. A cache tile of pipes x latency rows (2 x 4 = 8) comes first, i
  // innermost among the register loops (accumulators across the tile's
  // rows). A row sum (reduction along the contiguous loop) has no tile.
  LoopNest nest;
  nest.extents = {4096, 4096};
  nest.reduction = {true, false};
  nest.operands = {{{0, 1}, false}, {{1}, true}};
  Schedule s = chooseSchedule(nest, loadShipped("host-x86-avx512"));
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_FALSE(s.partialReduction);
  EXPECT_EQ(s.vectorDim, 1);
  ASSERT_EQ(s.tiles.size(), 1u);
  EXPECT_EQ(s.tiles[0].memory, "l1");
  EXPECT_EQ(s.tiles[0].sizes, (std::vector<int64_t>{8, 0}));
  EXPECT_EQ(s.tileOrder, (std::vector<int64_t>{0}));
  EXPECT_EQ(s.registerTile[0], 1);
  EXPECT_EQ(s.registerOrder, (std::vector<int64_t>{1, 0}));
  // Fewer rows than that: all of them.
  nest.extents = {3, 4096};
  Schedule few = chooseSchedule(nest, loadShipped("host-x86-avx512"));
  ASSERT_EQ(few.tiles.size(), 1u);
  EXPECT_EQ(few.tiles[0].sizes, (std::vector<int64_t>{3, 0}));
  // A row sum: out[i] += x[i][j].
  nest.extents = {4096, 4096};
  nest.reduction = {false, true};
  nest.operands = {{{0, 1}, false}, {{0}, true}};
  Schedule rows = chooseSchedule(nest, loadShipped("host-x86-avx512"));
  EXPECT_TRUE(rows.partialReduction);
  EXPECT_TRUE(rows.tiles.empty());
}

TEST(ScheduleModel, ElementwiseAvx2) {
  hw::Description chip = loadShipped("host-x86-avx2");
  // 3 operands: 16 / 4 = 4 vectors of 8 = 32.
  Schedule s = chooseSchedule(elementwiseNest(1024, 1024, 2), chip);
  EXPECT_EQ(elementwiseTile(*chip.vector, 3, 1024), 32);
  EXPECT_EQ(s.kind, "elementwise");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{1, 32}));
  // 4 operands: 16 / 5 = 3, rounded down to a power of two: 2 vectors.
  Schedule four = chooseSchedule(elementwiseNest(1024, 1024, 3), chip);
  EXPECT_EQ(elementwiseTile(*chip.vector, 4, 1024), 16);
  EXPECT_EQ(four.registerTile, (std::vector<int64_t>{1, 16}));
  // A short row: the tile is the row rounded up to whole vectors, and the
  // rows fill the rest of the 4 vectors: 2 rows of 16.
  Schedule narrow = chooseSchedule(elementwiseNest(1024, 12, 2), chip);
  EXPECT_EQ(narrow.registerTile, (std::vector<int64_t>{2, 16}));
}

namespace {
/// A row sum out[r] = sum_c in[r, c] over rows x columns.
LoopNest rowSumNest(int64_t rows, int64_t columns) {
  LoopNest nest;
  nest.extents = {rows, columns};
  nest.reduction = {false, true};
  nest.operands = {{{0, 1}, false}, {{0}, true}};
  nest.flopsPerIteration = 1;
  return nest;
}
} // namespace

// A row sum: the contiguous loop of the input is the reduction c, so it is
// vectorized with partial results (Model.cpp: "else the contiguous loop of
// an input when it is a reduction (a row sum)").
TEST(ScheduleModel, RowReduction) {
  hw::Description chip = loadShipped("host-x86-avx512");
  Schedule s = chooseSchedule(rowSumNest(1024, 1024), chip);
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_TRUE(s.partialReduction);
  EXPECT_TRUE(s.tiles.empty());
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{1, 128}));
}

// Rows shorter than the register tile's 8 vectors: several rows per tile,
// so their reductions are independent chains (rows of 32: 4 rows); a row of
// 100 takes 7 vectors, and one row.
TEST(ScheduleModel, ShortRowsShareARegisterTile) {
  hw::Description chip = loadShipped("host-x86-avx512");
  EXPECT_EQ(chooseSchedule(rowSumNest(65536, 32), chip).registerTile,
            (std::vector<int64_t>{4, 32}));
  EXPECT_EQ(chooseSchedule(rowSumNest(8192, 100), chip).registerTile,
            (std::vector<int64_t>{1, 112}));
  EXPECT_EQ(chooseSchedule(rowSumNest(2, 16), chip).registerTile,
            (std::vector<int64_t>{2, 16}));
}

// A matrix times a vector (a matmul with one column): the output's loop is
// shorter than a vector, so the contiguous k loop of both inputs is
// vectorized with partial sums, as in a row sum; with 16 columns (one
// vector) it stays a contraction along n.
TEST(ScheduleModel, MatrixTimesVectorVectorizesItsReduction) {
  hw::Description chip = loadShipped("host-x86-avx512");
  Schedule s = chooseSchedule(matmulNest(4096, 1, 4096), chip);
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.vectorDim, 2);
  EXPECT_TRUE(s.partialReduction);
  Schedule wide = chooseSchedule(matmulNest(4096, 16, 4096), chip);
  EXPECT_EQ(wide.kind, "contraction");
  EXPECT_EQ(wide.vectorDim, 1);
}

// A layernorm's variance var[r] = sum_c (x[r, c] - mean[r])^2: the row's
// mean is indexed by the output's loop r, but it is a broadcast operand;
// the data is contiguous along the reduction c, which is vectorized.
TEST(ScheduleModel, RowReductionWithBroadcastOperand) {
  hw::Description chip = loadShipped("host-x86-avx512");
  LoopNest nest;
  nest.extents = {4096, 4096};
  nest.reduction = {false, true};
  nest.operands = {{{0, 1}, false}, {{0}, false}, {{0}, true}};
  nest.flopsPerIteration = 3;
  Schedule s = chooseSchedule(nest, chip);
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_TRUE(s.partialReduction);
}

// A column sum out[c] = sum_r in[r, c]: the output's contiguous loop c is
// parallel and contiguous in the input; no partial results.
TEST(ScheduleModel, ColumnReduction) {
  hw::Description chip = loadShipped("host-x86-avx512");
  LoopNest nest;
  nest.extents = {1024, 1024};
  nest.reduction = {true, false};
  nest.operands = {{{0, 1}, false}, {{1}, true}};
  nest.flopsPerIteration = 1;
  Schedule s = chooseSchedule(nest, chip);
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.vectorDim, 1);
  EXPECT_FALSE(s.partialReduction);
}

// A full sum to a scalar: the input's loop is vectorized with partial
// results.
TEST(ScheduleModel, FullReduction) {
  hw::Description chip = loadShipped("host-x86-avx512");
  LoopNest nest;
  nest.extents = {1 << 20};
  nest.reduction = {true};
  nest.operands = {{{0}, false}, {{}, true}};
  nest.flopsPerIteration = 1;
  Schedule s = chooseSchedule(nest, chip);
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.vectorDim, 0);
  EXPECT_TRUE(s.partialReduction);
  EXPECT_TRUE(s.grid.empty()); // no parallel loop to split
}

//===----------------------------------------------------------------------===//
// predict: roofline time and bound
//===----------------------------------------------------------------------===//

namespace {
double dramBandwidth(const hw::DerivedModel &model) {
  for (const hw::MemoryModel &mem : model.memory)
    if (mem.kind == "dram")
      return mem.bandwidthTotal;
  return 0;
}
} // namespace

TEST(ScheduleModel, PredictMatmulIsComputeBound) {
  for (const char *name : {"host-x86-avx512", "host-x86-avx2"}) {
    SCOPED_TRACE(name);
    hw::Description chip = loadShipped(name);
    hw::DerivedModel model = hw::deriveModel(chip);
    const double n = 2048;
    Schedule s = chooseSchedule(matmulNest(2048, 2048, 2048), chip);
    // 2 n^3 FLOP at the f32 peak against 3 n^2 f32 elements from DRAM.
    double compute = 2 * n * n * n / model.peakFlops("f32");
    double memory = 3 * n * n * 4 / dramBandwidth(model);
    ASSERT_GT(compute, memory);
    EXPECT_EQ(s.bound, "compute");
    EXPECT_GT(s.predictedSeconds, 0);
    EXPECT_DOUBLE_EQ(s.predictedSeconds, compute);
  }
}

TEST(ScheduleModel, PredictElementwiseIsMemoryBound) {
  for (const char *name : {"host-x86-avx512", "host-x86-avx2"}) {
    SCOPED_TRACE(name);
    hw::Description chip = loadShipped(name);
    hw::DerivedModel model = hw::deriveModel(chip);
    const double n = 1024;
    Schedule s = chooseSchedule(elementwiseNest(1024, 1024, 2), chip);
    // n^2 FLOP against 3 n^2 f32 elements.
    double compute = n * n / model.peakFlops("f32");
    double memory = 3 * n * n * 4 / dramBandwidth(model);
    ASSERT_LT(compute, memory);
    EXPECT_EQ(s.bound, "memory");
    EXPECT_GT(s.predictedSeconds, 0);
    EXPECT_DOUBLE_EQ(s.predictedSeconds, memory);
  }
}

TEST(ScheduleModel, RowBlockFollowsTheL2) {
  hw::Description chip = loadShipped("host-x86-avx512");
  // Half of the 1 MiB L2 over rows of 2 x 1024 f32 (8 KiB): 64 rows, in
  // whole 6-row register tiles: 60.
  EXPECT_EQ(chooseRowBlock(chip, 8192, 6, 4096), 60);
  // Fewer rows than fit: all of them.
  EXPECT_EQ(chooseRowBlock(chip, 8192, 6, 40), 40);
  // Rows too long for one register tile to fit: fewer rows, at least one.
  EXPECT_EQ(chooseRowBlock(chip, 131072, 6, 4096), 4);
  EXPECT_EQ(chooseRowBlock(chip, 1 << 30, 6, 4096), 1);
  // A larger L2 keeps more rows together.
  findLevel(chip, "l2")->capacityBytes *= 2;
  EXPECT_EQ(chooseRowBlock(chip, 8192, 6, 4096), 126);
}

TEST(ScheduleModel, ConvolutionTermIsAContraction) {
  hw::Description chip = loadShipped("host-x86-avx512");
  // One window position of a 3x3 convolution: out[n, h, w, f] +=
  // in[n, h, w, c] * filter[c, f]. The image is of higher rank than the
  // filter, but the filter takes part in the reduction: its contiguous loop
  // f is the output's, so f is vectorized and w (the innermost loop the
  // image alone indexes) is the register tile's rows.
  LoopNest nest;
  nest.extents = {1, 56, 56, 64, 64};
  nest.reduction = {false, false, false, false, true};
  nest.operands = {
      {{0, 1, 2, 4}, false}, {{4, 3}, false}, {{0, 1, 2, 3}, true}};
  Schedule s = chooseSchedule(nest, chip);
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.vectorDim, 3);
  EXPECT_FALSE(s.partialReduction);
  RegisterBlock block = chooseRegisterBlock(*chip.vector, 56, 64 / 16);
  EXPECT_EQ(s.registerTile,
            (std::vector<int64_t>{1, 1, block.rows, block.vectors * 16, 1}));
  // A row mean beside its rows (a layernorm) still does not count: it
  // takes no part in the reduction.
  LoopNest variance;
  variance.extents = {1024, 1024};
  variance.reduction = {false, true};
  variance.operands = {{{0, 1}, false}, {{0}, false}, {{0}, true}};
  Schedule v = chooseSchedule(variance, chip);
  EXPECT_EQ(v.vectorDim, 1);
  EXPECT_TRUE(v.partialReduction);
}

TEST(ScheduleModel, WindowIsSummedInsideTheRegisterTile) {
  hw::Description chip = loadShipped("host-x86-avx512");
  // A whole 3x3 convolution, loops (n, oh, ow, f, kh, kw, c): the image is
  // read through windows (oh + kh, ow + kw), the filter plainly. It is a
  // contraction over c whose window loops kh, kw stay inside the register
  // tile, after its rows and vectors; only the filter is packed.
  LoopNest nest;
  nest.extents = {1, 56, 56, 64, 3, 3, 64};
  nest.reduction = {false, false, false, false, true, true, true};
  nest.operands = {{{0, -1, -1, 6}, false, {1, 4, 2, 5}},
                   {{4, 5, 6, 3}, false},
                   {{0, 1, 2, 3}, true}};
  Schedule s = chooseSchedule(nest, chip);
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.vectorDim, 3);
  EXPECT_EQ(s.promote, (std::vector<int64_t>{1}));
  EXPECT_EQ(s.registerTile[2], chooseRegisterBlock(*chip.vector, 56, 4).rows);
  ASSERT_GE(s.registerOrder.size(), 4u);
  EXPECT_EQ(
      std::vector<int64_t>(s.registerOrder.end() - 4, s.registerOrder.end()),
      (std::vector<int64_t>{2, 4, 5, 6}));
  // Every channel tile sweeps the whole output (m's tile is one output
  // row), so the channel tile is as long as the packed filter panel of
  // every window position allows in half of L2 (1 MiB): all 64 channels
  // (9 x 64 x 64 floats, 144 KiB), and with 512 channels the largest
  // divisor of 512 within 2^17 / (9 x 64) = 227 channels: 128.
  ASSERT_FALSE(s.tiles.empty());
  EXPECT_EQ(s.tiles.back().memory, "l1");
  EXPECT_EQ(s.tiles.back().sizes[6], 64);
  LoopNest wide = nest;
  wide.extents = {1, 56, 56, 64, 3, 3, 512};
  Schedule w = chooseSchedule(wide, chip);
  ASSERT_FALSE(w.tiles.empty());
  EXPECT_EQ(w.tiles.back().sizes[6], 128);
}
