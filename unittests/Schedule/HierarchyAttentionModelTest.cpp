//===- HierarchyAttentionModelTest.cpp - Fused attention schedules --------===//
//
// The made-up chip of HierarchyModelTest.cpp (64 blocks of 4 groups of 32
// lanes, 255 registers per lane, 32 banks, one 16x8x16 f16 intrinsic per
// group) with 100 KiB of scratchpad unless a test says otherwise; the
// expected values follow the rules of HierarchyAttentionModel.cpp.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "strata/Schedule/HierarchyAttentionModel.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;
using nlohmann::json;

namespace {

hw::Description chip(int64_t scratchpadBytes = 102400) {
  return loadJson(gridChipJson(scratchpadBytes));
}

HierarchyAttentionShape shape(int64_t batch, int64_t seq, int64_t d,
                              std::string type = "f16") {
  HierarchyAttentionShape s;
  s.batch = batch, s.queries = seq, s.keys = seq, s.headDim = d, s.valueDim = d,
  s.inputType = std::move(type);
  return s;
}

HierarchyAttentionChoice choose(const HierarchyAttentionShape &s,
                                int64_t scratchpad = 102400) {
  hw::Description c = chip(scratchpad);
  std::optional<HierarchyLevels> levels = hierarchyLevels(c);
  EXPECT_TRUE(levels);
  return chooseHierarchyAttentionSchedule(s, *levels, c);
}

// Tiles: Q 64 x (64 + 8) halves, Kᵀ 64 x (64 + 8), V 64 x (64 + 8), f32
// scores (and P V) 64 x (64 + 2), P 64 x (64 + 8), f32 output 64 x (64 + 2),
// f32 rows of 64: maximum, sum, factor, next maximum, and a partial maximum
// and sum for each of the 2 lanes of a row.
TEST(HierarchyAttentionModel, TilesOfOneBlock) {
  HierarchyAttentionTiles t =
      hierarchyAttentionTiles(shape(1, 1024, 64), 64, 64, 8, 2);
  EXPECT_EQ(t.query, 64 * 72 * 2);
  EXPECT_EQ(t.keysT, 64 * 72 * 2);
  EXPECT_EQ(t.values, 64 * 72 * 2);
  EXPECT_EQ(t.scores, 64 * 66 * 4);
  EXPECT_EQ(t.probs, 64 * 72 * 2);
  EXPECT_EQ(t.output, 64 * 66 * 4);
  EXPECT_EQ(t.rows, 8 * 64 * 4);
  EXPECT_EQ(t.total(), 72704);
  // The scores' buffer also holds P V, wider when the values are.
  HierarchyAttentionTiles wide =
      hierarchyAttentionTiles(shape(1, 1024, 128), 64, 32, 8);
  EXPECT_EQ(wide.scores, 64 * 130 * 4);
  EXPECT_EQ(wide.keysT, 128 * 40 * 2);
}

// Four groups of 16 query rows, key tiles of 64 (four units of 16, the
// scores of 16 x 64 in 32 registers per lane), 128 blocks.
TEST(HierarchyAttentionModel, LargeProblem) {
  HierarchyAttentionChoice c = choose(shape(8, 1024, 64));
  ASSERT_TRUE(c.schedule) << c.error;
  const HierarchyAttentionSchedule &s = *c.schedule;
  EXPECT_EQ(s.intrinsic, "mm16x8x16");
  EXPECT_EQ(s.fragM, 16);
  EXPECT_EQ(s.groups, 4);
  EXPECT_EQ(s.blockM, 64);
  EXPECT_EQ(s.blockK, 64);
  EXPECT_EQ(s.padElements, 8);
  EXPECT_EQ(s.gridBatch, 8);
  EXPECT_EQ(s.gridQueries, 16);
  EXPECT_EQ(s.keyTiles, 16);
  EXPECT_EQ(s.accumulatorRegisters, 32);
  EXPECT_EQ(s.tiles.total(), 72704);
  EXPECT_EQ(s.rowLanes, 2);
  EXPECT_EQ(s.lanesPerBlock(), 128);
  json doc = s.toJson();
  EXPECT_EQ(doc["kind"], "attention");
  EXPECT_EQ(doc["grid"], json::array({8, 16}));
  EXPECT_EQ(doc["scratchpad_bytes"], 72704);
}

// Two heads of 256 queries: 8 blocks of four groups, 16 of two: one group
// per block gives 32 blocks, the most there can be.
TEST(HierarchyAttentionModel, SmallProblemFillsBlocks) {
  HierarchyAttentionChoice c = choose(shape(2, 256, 64));
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_EQ(c.schedule->groups, 1);
  EXPECT_EQ(c.schedule->blockM, 16);
  EXPECT_EQ(c.schedule->gridQueries, 16);
}

// Head dimension 128: four groups do not fit 100 KiB with key tiles of 64
// (131072 bytes) or 32 (110080); two groups with key tiles of 64 do
// (83456). The P V accumulators (16 x 128 over 32 lanes) need 64 registers.
TEST(HierarchyAttentionModel, ScratchpadShrinksTheBlock) {
  HierarchyAttentionChoice c = choose(shape(8, 4096, 128));
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_EQ(hierarchyAttentionTiles(shape(8, 4096, 128), 64, 64, 8, 2).total(),
            131072);
  EXPECT_EQ(hierarchyAttentionTiles(shape(8, 4096, 128), 64, 32, 8, 2).total(),
            110080);
  EXPECT_EQ(c.schedule->groups, 2);
  EXPECT_EQ(c.schedule->blockK, 64);
  EXPECT_EQ(c.schedule->tiles.total(), 83456);
  EXPECT_EQ(c.schedule->accumulatorRegisters, 64);
  EXPECT_LE(c.schedule->tiles.total(), 102400);
}

// Fewer keys than a tile: one key tile of the smallest size (32: P V needs
// two steps of the intrinsic's k).
TEST(HierarchyAttentionModel, FewKeys) {
  HierarchyAttentionShape s = shape(64, 40, 64);
  s.keys = 20;
  HierarchyAttentionChoice c = choose(s);
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_EQ(c.schedule->blockK, 32);
  EXPECT_EQ(c.schedule->keyTiles, 1);
  EXPECT_EQ(c.schedule->gridQueries, 1);
}

// No intrinsic for f32 operands: multiply-adds by the lanes, groups of 16
// rows (half the lanes), key tiles of multiples of 16. Key tiles of 64 need
// 105472 bytes (f32 tiles padded by 4), 32 fit (80384).
TEST(HierarchyAttentionModel, MultiplyAddsWithoutIntrinsic) {
  HierarchyAttentionChoice c = choose(shape(8, 1024, 64, "f32"));
  ASSERT_TRUE(c.schedule) << c.error;
  const HierarchyAttentionSchedule &s = *c.schedule;
  EXPECT_TRUE(s.intrinsic.empty());
  EXPECT_EQ(s.fragM, 16);
  EXPECT_EQ(s.padElements, 4);
  EXPECT_EQ(s.groups, 4);
  EXPECT_EQ(
      hierarchyAttentionTiles(shape(8, 1024, 64, "f32"), 64, 64, 4, 2).total(),
      105472);
  EXPECT_EQ(s.blockK, 32);
  EXPECT_EQ(s.tiles.total(), 80384);
  EXPECT_EQ(s.accumulatorRegisters, 1);
}

TEST(HierarchyAttentionModel, Refusals) {
  // Head dimensions the intrinsic's k does not divide, or under two of it.
  for (int64_t d : {24, 16}) {
    HierarchyAttentionChoice c = choose(shape(8, 1024, d));
    EXPECT_FALSE(c.schedule) << d;
    EXPECT_NE(c.error.find("not multiples"), std::string::npos) << c.error;
  }
  // A scratchpad smaller than the smallest block.
  HierarchyAttentionChoice tiny = choose(shape(8, 1024, 64), 8192);
  EXPECT_FALSE(tiny.schedule);
  EXPECT_NE(tiny.error.find("the smallest block needs"), std::string::npos)
      << tiny.error;
}

} // namespace
