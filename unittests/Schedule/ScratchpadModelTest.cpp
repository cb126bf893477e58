//===- ScratchpadModelTest.cpp - Schedules for grids of scratchpads -------===//
//
// The scratchpad model on the shipped tile-grid description and on copies
// of it with one field changed: the schedule must follow the description
// (grid size, scratchpad capacity, DRAM bandwidth) in the expected
// direction, account the scratchpad exactly, and say what does not fit.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "strata/Schedule/ScratchpadModel.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

const char *kChip = "tile-wormhole-n150";

/// The shipped description with `edit` applied to its JSON.
hw::Description edited(const std::function<void(nlohmann::json &)> &edit) {
  return editedShipped(kChip, edit);
}

nlohmann::json &scratchpad(nlohmann::json &doc) {
  for (nlohmann::json &mem : doc["memory"])
    if (mem["kind"] == "scratchpad")
      return mem;
  ADD_FAILURE() << "no scratchpad";
  return doc;
}

/// bf16 x bf16 -> `out` matmul of m x n x k.
LoopNest bf16Matmul(int64_t m, int64_t n, int64_t k,
                    const std::string &out = "bf16") {
  LoopNest nest = matmulNest(m, n, k);
  nest.elementTypes = {"bf16", "bf16", out};
  nest.elementBytes = out == "bf16" ? 2 : 4;
  return nest;
}

Schedule schedule(const LoopNest &nest, const hw::Description &chip) {
  llvm::Expected<Schedule> s =
      chooseScratchpadSchedule(nest, chip, "linalg.matmul");
  EXPECT_TRUE(bool(s)) << (s ? "" : llvm::toString(s.takeError()));
  return s ? *s : Schedule();
}

int64_t footprint(const Schedule &s) {
  return s.footprints.empty() ? 0 : s.footprints.front().second;
}

/// The scratchpad bytes of a matmul schedule, recomputed from its sizes:
/// A and B blocks times the stages, the partial sums (f32) when k takes
/// more than one step, two rows of output tiles, two 16-byte words per
/// multicast operand.
int64_t accounted(const Schedule &s, int64_t k, int64_t outBytes) {
  const std::vector<int64_t> &b = s.tiles.front().sizes;
  int64_t partial = b[2] < k ? b[0] * b[1] * 4 : 0;
  return s.stages * (b[0] * b[2] + b[2] * b[1]) * 2 + partial +
         2 * b[1] * 32 * outBytes + int64_t(s.multicast.size()) * 2 * 16;
}

TEST(ScratchpadModel, FindsTheGridScratchpad) {
  hw::Description chip = loadShipped(kChip);
  const hw::MemoryLevel *pad = gridScratchpad(chip);
  ASSERT_NE(pad, nullptr);
  EXPECT_EQ(pad->kind, "scratchpad");
  UnitGrid grid = unitGrid(chip, *pad);
  EXPECT_EQ(grid.rows, 8);
  EXPECT_EQ(grid.cols, 8);
  // Chips with caches keep the cache model.
  EXPECT_EQ(gridScratchpad(loadShipped("host-x86-avx512")), nullptr);
}

TEST(ScratchpadModel, LargeMatmulFillsTheGridAndFitsExactly) {
  hw::Description chip = loadShipped(kChip);
  Schedule s = schedule(bf16Matmul(4096, 4096, 4096), chip);
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.gridLevel, "core");
  // 8 x 8 units, 512 x 512 elements each.
  EXPECT_EQ(s.grid[0], 512);
  EXPECT_EQ(s.grid[1], 512);
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{32, 32, 32}));
  EXPECT_EQ(s.matrixIntrinsic, "matmul_tiles_bf16_f32acc");
  EXPECT_EQ(s.multicast, (std::vector<int64_t>{0, 1}));
  ASSERT_EQ(s.tiles.size(), 1u);
  const std::vector<int64_t> &block = s.tiles.front().sizes;
  EXPECT_EQ(512 % block[0], 0);
  EXPECT_EQ(512 % block[1], 0);
  EXPECT_EQ(4096 % block[2], 0);
  EXPECT_GE(s.stages, 2);
  EXPECT_EQ(footprint(s), accounted(s, 4096, 2));
  EXPECT_LE(footprint(s), scratchpad(chip.document)["capacity_bytes"]);
}

TEST(ScratchpadModel, SlowPartialSumReloadsGiveLongerKSteps) {
  // Partial sums are read back through the matrix unit's operand path: at
  // L1's 256 B/cycle a 1024x2048x1024 matmul took k steps of 2 tiles (the
  // tile cycle model: 87k cycles at HiFi2, tt-metal's measured 61k); at the
  // unpacker's 64 B/cycle its steps are longer and it predicts slower.
  hw::Description chip = loadShipped(kChip);
  hw::Description fast = edited([](nlohmann::json &doc) {
    for (nlohmann::json &intrinsic : doc["matrix"])
      intrinsic.erase("operand_bytes_per_cycle");
  });
  LoopNest nest = bf16Matmul(1024, 2048, 1024);
  Schedule slow = schedule(nest, chip), quick = schedule(nest, fast);
  EXPECT_EQ(quick.tiles.front().sizes[2], 64);
  EXPECT_GT(slow.tiles.front().sizes[2], 64);
}

TEST(ScratchpadModel, SmallerGridGivesLargerPartsAndSlowerPrediction) {
  hw::Description chip = loadShipped(kChip);
  hw::Description small = edited([](nlohmann::json &doc) {
    doc["compute"][1]["count"] = 4;
    doc["compute"][2]["count"] = 4;
  });
  LoopNest nest = bf16Matmul(2048, 2048, 2048);
  Schedule full = schedule(nest, chip), quarter = schedule(nest, small);
  EXPECT_EQ(full.grid[0], 256);
  EXPECT_EQ(quarter.grid[0], 512);
  EXPECT_GT(quarter.predictedSeconds, 3 * full.predictedSeconds);
}

TEST(ScratchpadModel, SmallerScratchpadGivesSmallerBlocks) {
  hw::Description chip = loadShipped(kChip);
  int64_t capacity = 256 * 1024;
  hw::Description small = edited([&](nlohmann::json &doc) {
    scratchpad(doc)["capacity_bytes"] = capacity;
  });
  LoopNest nest = bf16Matmul(4096, 4096, 4096);
  Schedule big = schedule(nest, chip), tight = schedule(nest, small);
  EXPECT_LE(footprint(tight), capacity);
  EXPECT_EQ(footprint(tight), accounted(tight, 4096, 2));
  auto volume = [](const Schedule &s) {
    const std::vector<int64_t> &b = s.tiles.front().sizes;
    return b[0] * b[1];
  };
  EXPECT_LT(volume(tight), volume(big));
  EXPECT_GE(tight.predictedSeconds, big.predictedSeconds);
}

TEST(ScratchpadModel, SlowerDramGivesSlowerPrediction) {
  hw::Description chip = loadShipped(kChip);
  hw::Description slow = edited([](nlohmann::json &doc) {
    for (nlohmann::json &mem : doc["memory"])
      if (mem["kind"] == "dram")
        mem["bandwidth_bytes_per_s"] = 1e10;
  });
  LoopNest nest = bf16Matmul(1024, 1024, 1024);
  Schedule fast = schedule(nest, chip), starved = schedule(nest, slow);
  EXPECT_GT(starved.predictedSeconds, 5 * fast.predictedSeconds);
  EXPECT_EQ(starved.bound, "memory");
  // Starved of DRAM, reading each operand once pays: both are multicast.
  EXPECT_EQ(starved.multicast, (std::vector<int64_t>{0, 1}));
}

TEST(ScratchpadModel, OverflowNamesBuffersCapacityAndOp) {
  hw::Description tiny = edited(
      [](nlohmann::json &doc) { scratchpad(doc)["capacity_bytes"] = 8192; });
  llvm::Expected<Schedule> s = chooseScratchpadSchedule(
      bf16Matmul(256, 256, 256), tiny, "linalg.matmul");
  ASSERT_FALSE(bool(s));
  std::string message = llvm::toString(s.takeError());
  EXPECT_NE(message.find("'linalg.matmul' does not fit in scratchpad 'l1'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("8192 bytes"), std::string::npos) << message;
  // a 2 x 2 KB, b 2 x 2 KB, partial sums 4 KB, output 2 x 2 KB.
  EXPECT_NE(message.find("need 16384 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("partial sums 1 x 1x1 tiles = 4096 B"),
            std::string::npos)
      << message;
}

TEST(ScratchpadModel, OperandTypesWithoutIntrinsicAreRejected) {
  LoopNest nest = bf16Matmul(256, 256, 256, "f32");
  nest.elementTypes = {"f16", "f16", "f32"};
  llvm::Expected<Schedule> s =
      chooseScratchpadSchedule(nest, loadShipped(kChip), "linalg.matmul");
  ASSERT_FALSE(bool(s));
  std::string message = llvm::toString(s.takeError());
  EXPECT_NE(message.find("no matrix intrinsic"), std::string::npos) << message;
  EXPECT_NE(message.find("f16 x f16"), std::string::npos) << message;
}

TEST(ScratchpadModel, F32OperandsUseTheTf32IntrinsicAtItsOnlyFidelity) {
  LoopNest nest = bf16Matmul(4096, 4096, 4096, "f32");
  nest.elementTypes = {"f32", "f32", "f32"};
  Schedule f32 = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(f32.matrixIntrinsic, "matmul_tiles_tf32_f32acc");
  Schedule bf16 =
      schedule(bf16Matmul(1024, 1024, 1024, "f32"), loadShipped(kChip));
  // Four passes (HiFi4) against bf16's fastest one (LoFi), and twice the
  // bytes: the f32 matmul is predicted at least 2x slower.
  EXPECT_GT(f32.predictedSeconds, 2 * bf16.predictedSeconds);
}

TEST(ScratchpadModel, BatchProductsShareTheGridByRows) {
  // C[b] = A[b] B[b], b = 0..5: one 128x256 product fills 4 rows of the
  // 8x8 grid, so two run at once and the batch takes three rounds.
  LoopNest nest;
  nest.extents = {6, 128, 256, 512};
  nest.reduction = {false, false, false, true};
  nest.operands = {{{0, 1, 3}, false}, {{0, 3, 2}, false}, {{0, 1, 2}, true}};
  nest.elementTypes = {"bf16", "bf16", "f32"};
  Schedule batch = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(batch.kind, "contraction");
  EXPECT_EQ(batch.grid[0], 1);
  EXPECT_EQ(batch.registerTile, (std::vector<int64_t>{1, 32, 32, 32}));
  EXPECT_EQ(batch.tileOrder, (std::vector<int64_t>{0, 1, 2, 3}));
  nest.extents[0] = 2; // one round
  Schedule two = schedule(nest, loadShipped(kChip));
  EXPECT_NEAR(batch.predictedSeconds / two.predictedSeconds, 3.0, 1e-9);
}

TEST(ScratchpadModel, ElementwiseMovesWholeTiles) {
  LoopNest nest = elementwiseNest(512, 512, 2);
  nest.elementTypes.assign(3, "bf16");
  Schedule s = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(s.kind, "elementwise");
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{32, 32}));
  // Whole tiles per step; two steps of the three operands fit.
  int64_t step = s.tiles.front().sizes[1] / 32;
  EXPECT_GE(step, 1);
  EXPECT_EQ(footprint(s), 2 * step * 3 * 2048);
}

TEST(ScratchpadModel, RowReductionKeepsWholeRows) {
  LoopNest nest;
  nest.extents = {256, 1024};
  nest.reduction = {false, true};
  nest.operands = {{{0, 1}, false}, {{0}, true}};
  nest.elementTypes = {"bf16", "f32"};
  Schedule s = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.tiles.front().sizes, (std::vector<int64_t>{32, 1024}));
  // 32 bf16 tiles of the row and one f32 tile of the result.
  EXPECT_EQ(footprint(s), 32 * 2048 + 4096);
  // A row that does not fit is an error naming its size.
  nest.extents = {256, 1 << 20};
  llvm::Expected<Schedule> tooLong =
      chooseScratchpadSchedule(nest, loadShipped(kChip), "linalg.generic");
  ASSERT_FALSE(bool(tooLong));
  EXPECT_NE(
      llvm::toString(tooLong.takeError()).find("a row of 32768 input tiles"),
      std::string::npos);
}

TEST(ScratchpadModel, RowReductionOfABatch) {
  // out[b, i] = sum_j in[b, i, j]: one row of tiles per unit at a time.
  LoopNest nest;
  nest.extents = {8, 256, 256};
  nest.reduction = {false, false, true};
  nest.operands = {{{0, 1, 2}, false}, {{0, 1}, true}};
  nest.elementTypes = {"f32", "f32"};
  Schedule s = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{1, 32, 32}));
  EXPECT_EQ(s.tiles.front().sizes, (std::vector<int64_t>{1, 32, 256}));
  EXPECT_EQ(footprint(s), 8 * 4096 + 4096);
}

TEST(ScratchpadModel, RowReductionReadingAPerRowVector) {
  // var[i] = sum_j (x[i, j] - mean[i])^2: the mean's tile stays too.
  LoopNest nest;
  nest.extents = {128, 768};
  nest.reduction = {false, true};
  nest.operands = {{{0, 1}, false}, {{0}, false}, {{0}, true}};
  nest.elementTypes = {"f32", "f32", "f32"};
  Schedule s = schedule(nest, loadShipped(kChip));
  EXPECT_EQ(s.kind, "reduction");
  EXPECT_EQ(footprint(s), 24 * 4096 + 2 * 4096);
  // A per-column vector is not a row reduction's operand.
  nest.operands[1] = {{1}, false};
  llvm::Expected<Schedule> column =
      chooseScratchpadSchedule(nest, loadShipped(kChip), "linalg.generic");
  ASSERT_FALSE(bool(column));
  llvm::consumeError(column.takeError());
}

/// out[n, oh, ow, f] += in[n, oh + kh, ow + kw, c] * filter[kh, kw, c, f]
/// over loops (n, oh, ow, f, kh, kw, c), f32.
LoopNest convNest(int64_t h, int64_t w, int64_t c, int64_t k, int64_t f) {
  LoopNest nest;
  nest.extents = {1, h - k + 1, w - k + 1, f, k, k, c};
  nest.reduction = {false, false, false, false, true, true, true};
  nest.operands = {{{0, -1, -1, 6}, false, {1, 4, 2, 5}},
                   {{4, 5, 6, 3}, false},
                   {{0, 1, 2, 3}, true}};
  nest.elementTypes = {"f32", "f32", "f32"};
  return nest;
}

TEST(ScratchpadModel, ConvolutionIsItsImplicitGemm) {
  // examples/models/conv2d.mlir: 54 x 54 pixels, 3 x 3 x 64 -> 64.
  Schedule s = schedule(convNest(56, 56, 64, 3, 64), loadShipped(kChip));
  EXPECT_EQ(s.kind, "contraction");
  EXPECT_EQ(s.matrixIntrinsic, "matmul_tiles_tf32_f32acc");
  // m (2916 pixels) on the ow loop, n on f, the k step on c, in elements
  // of the flattened GEMM.
  EXPECT_EQ(s.registerTile, (std::vector<int64_t>{1, 1, 32, 32, 1, 1, 32}));
  const std::vector<int64_t> &block = s.tiles.front().sizes;
  EXPECT_EQ(block[2] % 32, 0);
  EXPECT_EQ(block[3], 32);
  EXPECT_EQ((9 * 64) % block[6], 0);
  // Every unit row covers its share of the 92 pixel tiles.
  EXPECT_GE(s.grid[2] / 32 * 8, 92);
}

TEST(ScratchpadModel, ShortOutputRowsCutMoreRuns) {
  // The same implicit GEMM (2916 x 64 x 576): output rows of 54 pixels
  // break a tile's runs once, rows of 6 pixels six times, so each A tile
  // takes more transfers and the prediction is slower.
  hw::Description chip = loadShipped(kChip);
  Schedule wide = schedule(convNest(56, 56, 64, 3, 64), chip);
  Schedule narrow = schedule(convNest(488, 8, 64, 3, 64), chip);
  EXPECT_GT(narrow.predictedSeconds, 1.2 * wide.predictedSeconds);
}

// Channels that are not whole tiles (an RGB input) share a k tile between
// taps: each row of an A tile is read one value at a time (3 channels,
// 16-wide faces), 32 x 32 transfers per tile, so the convolution is bound
// by data movement and slower than one with 32 channels per tap and the
// same number of k tiles' worth of work per output tile.
TEST(ScratchpadModel, ConvolutionChannelsInPiecesOfTaps) {
  llvm::Expected<Schedule> rgb = chooseScratchpadSchedule(
      convNest(18, 18, 3, 3, 32), loadShipped(kChip), "linalg.conv");
  ASSERT_TRUE(bool(rgb)) << llvm::toString(rgb.takeError());
  EXPECT_EQ(rgb->bound, "movement");
  llvm::Expected<Schedule> whole = chooseScratchpadSchedule(
      convNest(18, 18, 32, 1, 32), loadShipped(kChip), "linalg.conv");
  ASSERT_TRUE(bool(whole)) << llvm::toString(whole.takeError());
  EXPECT_GT(rgb->predictedSeconds, 2 * whole->predictedSeconds);
}

// An intrinsic with its own accumulator memory (a systolic array's): the
// partial sums leave the scratchpad, two blocks of accumulators must fit
// the accumulator, and a smaller one shrinks the block.
/// The description with an accumulator memory of `bytes` beside the
/// scratchpad, named by every matrix intrinsic.
hw::Description withAccumulator(int64_t bytes) {
  return edited([&](nlohmann::json &doc) {
    nlohmann::json acc = scratchpad(doc);
    acc["name"] = "acc";
    acc["capacity_bytes"] = bytes;
    acc.erase("engine");
    doc["memory"].push_back(acc);
    for (nlohmann::json &mi : doc["matrix"])
      mi["accumulator"] = "acc";
  });
}

TEST(ScratchpadModel, AccumulatorMemoryHoldsTwoBlocks) {
  LoopNest nest = bf16Matmul(2048, 2048, 2048, "f32");
  Schedule large = schedule(nest, withAccumulator(1 << 20));
  Schedule small = schedule(nest, withAccumulator(16 * 1024));
  ASSERT_EQ(small.footprints.size(), 2u);
  EXPECT_EQ(small.footprints[1].first, "acc");
  const std::vector<int64_t> &b = small.tiles.front().sizes;
  EXPECT_EQ(small.footprints[1].second, 2 * b[0] * b[1] * 4);
  EXPECT_LE(small.footprints[1].second, 16 * 1024);
  const std::vector<int64_t> &l = large.tiles.front().sizes;
  EXPECT_LT(b[0] * b[1], l[0] * l[1]);
  EXPECT_GE(small.predictedSeconds, large.predictedSeconds);
  llvm::Expected<Schedule> none =
      chooseScratchpadSchedule(nest, withAccumulator(4096), "linalg.matmul");
  ASSERT_FALSE(bool(none));
  EXPECT_NE(llvm::toString(none.takeError()).find("do not fit in accumulator"),
            std::string::npos);
}

TEST(ScratchpadModel, AccumulatedResultsLeaveFromTheAccumulator) {
  // f32 results move from the accumulator to DRAM: the scratchpad holds the
  // operands' stages only. bf16 results are converted a block at a time
  // into the scratchpad (two blocks).
  for (const char *out : {"f32", "bf16"}) {
    Schedule s =
        schedule(bf16Matmul(1024, 1024, 1024, out), withAccumulator(1 << 20));
    const std::vector<int64_t> &t = s.tiles.front().sizes;
    int64_t operands = s.stages * (t[0] * t[2] + t[2] * t[1]) * 2;
    int64_t staging = std::string(out) == "f32" ? 0 : 2 * t[0] * t[1] * 2;
    ASSERT_FALSE(s.footprints.empty());
    // (plus a few synchronization words where operands are multicast)
    EXPECT_GE(s.footprints[0].second, operands + staging) << out;
    EXPECT_LE(s.footprints[0].second, operands + staging + 256) << out;
  }
}

} // namespace
