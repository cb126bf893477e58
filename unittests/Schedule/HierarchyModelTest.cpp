//===- HierarchyModelTest.cpp - Schedules over nested compute levels ------===//
//
// A made-up chip with 64 blocks of 4 groups of 32 lanes, 100 KiB of
// scratchpad per block and one 16x8x16 f16 intrinsic per group; the expected
// values follow the rules of HierarchyModel.cpp.
//
//===----------------------------------------------------------------------===//
#include "TestSupport.h"

#include "strata/Schedule/HierarchyModel.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;
using nlohmann::json;

namespace {

TEST(HierarchyModel, RecognizesNestedLevels) {
  hw::Description chip = loadJson(gridChipJson());
  std::optional<HierarchyLevels> levels = hierarchyLevels(chip);
  ASSERT_TRUE(levels);
  EXPECT_EQ(levels->block, "block");
  EXPECT_EQ(levels->group, "group");
  EXPECT_EQ(levels->lane, "lane");
  EXPECT_EQ(levels->scratchpad, "tiles");
  EXPECT_EQ(levels->blocks, 64);
  EXPECT_EQ(levels->groups, 4);
  EXPECT_EQ(levels->lanes, 32);
}

TEST(HierarchyModel, FlatChipsAreNotHierarchies) {
  // The scratchpad belongs to the innermost level but one: no group level.
  json doc = gridChipJson();
  doc["compute"] = json::parse(R"([{"name": "chip", "count": 1},
      {"name": "block", "count": 64}, {"name": "lane", "count": 32}])");
  doc["matrix"] = json::array();
  doc["peaks_flops"].erase("f16");
  EXPECT_FALSE(hierarchyLevels(loadJson(doc)));
  // Caches only.
  doc = gridChipJson();
  doc["memory"][1]["kind"] = "cache";
  EXPECT_FALSE(hierarchyLevels(loadJson(doc)));
}

TEST(HierarchyModel, MatrixIntrinsicContraction) {
  hw::Description chip = loadJson(gridChipJson());
  HierarchyLevels levels = *hierarchyLevels(chip);
  HierarchySchedule s =
      chooseHierarchySchedule({4096, 4096, 4096, "f16", "f32"}, levels, chip);
  EXPECT_EQ(s.intrinsic, "mm16x8x16");
  EXPECT_EQ(s.fragM, 16);
  EXPECT_EQ(s.fragN, 8);
  EXPECT_EQ(s.fragK, 16);
  // Group tiles are whole fragments, accumulators in half the registers,
  // and the best reuse under that bound: 64 x 32 (64 registers; 64 x 64
  // would need 128 > 127).
  EXPECT_EQ(s.groupM % s.fragM, 0);
  EXPECT_EQ(s.groupN % s.fragN, 0);
  EXPECT_LE(s.accumulatorRegisters, 255 / 2);
  EXPECT_EQ(s.groupM * s.groupN, 2048);
  // All four groups on a problem this large, near square.
  EXPECT_EQ(s.groupsM * s.groupsN, 4);
  EXPECT_EQ(s.lanesPerBlock(), 128);
  EXPECT_EQ(s.gridM, (4096 + s.blockM - 1) / s.blockM);
  EXPECT_EQ(s.gridN, (4096 + s.blockN - 1) / s.blockN);
  // Rows padded by 16 bytes (a quarter of the 32 four-byte banks), two
  // buffers, and the largest k step (4 fragments) that fits.
  EXPECT_EQ(s.padElements, 8);
  EXPECT_EQ(s.buffers, 2);
  EXPECT_EQ(s.blockK, 64);
  int64_t expected =
      2 * (s.blockM * (s.blockK + 8) + s.blockK * (s.blockN + 8)) * 2 +
      s.blockM * s.blockN * 4;
  EXPECT_EQ(s.scratchpadBytes, expected);
  EXPECT_LE(s.scratchpadBytes, 102400);
}

/// The chip with a level of 2 x 2 groups between blocks and groups, which
/// issues collective intrinsics (in preference order): one too large for the
/// lanes' registers, then one that fits.
json collectiveChip() {
  json doc = gridChipJson(262144);
  doc["compute"] = json::parse(R"([{"name": "chip", "count": 1},
      {"name": "block", "count": 64}, {"name": "quad", "count": 2},
      {"name": "group", "count": 2}, {"name": "lane", "count": 32}])");
  doc["matrix"].insert(doc["matrix"].begin(), json::parse(R"(
      {"name": "quad64x256", "m": 64, "n": 256, "k": 16, "a": "f16",
       "b": "f16", "acc": "f32", "level": "quad",
       "cycles_per_instruction": 512})"));
  doc["matrix"].insert(doc["matrix"].begin() + 1, json::parse(R"(
      {"name": "quad64x128", "m": 64, "n": 128, "k": 16, "a": "f16",
       "b": "f16", "acc": "f32", "level": "quad",
       "cycles_per_instruction": 256})"));
  doc["memory"][1]["async_copy"] = true;
  doc["peaks_flops"]["f16"] = 2e14;
  return doc;
}

TEST(HierarchyModel, CollectiveIntrinsicMakesItsLevelTheGroup) {
  hw::Description chip = loadJson(collectiveChip());
  HierarchyLevels levels = *hierarchyLevels(chip);
  EXPECT_EQ(levels.group, "group");
  HierarchySchedule s =
      chooseHierarchySchedule({4096, 4096, 4096, "f16", "f32"}, levels, chip);
  // 64 x 256 would need 64 * 256 / 64 lanes = 256 accumulator registers per
  // lane (> 127); 64 x 128 needs 128 > 127 as well with 64 lanes per quad:
  // neither fits, so the group-level intrinsic is used.
  EXPECT_EQ(s.intrinsic, "mm16x8x16");
  EXPECT_FALSE(s.collective);

  // With 4 groups (128 lanes) per quad, 64 x 128 fits (64 registers).
  json doc = collectiveChip();
  doc["compute"][3]["count"] = 4;
  chip = loadJson(doc);
  levels = *hierarchyLevels(chip);
  s = chooseHierarchySchedule({4096, 4096, 4096, "f16", "f32"}, levels, chip);
  EXPECT_EQ(s.intrinsic, "quad64x128");
  EXPECT_TRUE(s.collective);
  EXPECT_EQ(s.levels.group, "quad");
  EXPECT_EQ(s.levels.groups, 2);
  EXPECT_EQ(s.levels.lanes, 128);
  // One fragment per group, the quads stacked along m, unpadded tiles.
  EXPECT_EQ(s.groupM, 64);
  EXPECT_EQ(s.groupN, 128);
  EXPECT_EQ(s.accumulatorRegisters, 64);
  EXPECT_EQ(s.groupsM, 2);
  EXPECT_EQ(s.groupsN, 1);
  EXPECT_EQ(s.lanesPerBlock(), 256);
  EXPECT_EQ(s.padElements, 0);
  EXPECT_EQ(s.blockK, 64);
  EXPECT_TRUE(s.asyncCopies);
  EXPECT_EQ(s.buffers, 4);
  EXPECT_EQ(s.scratchpadBytes, 4 * (128 * 64 + 64 * 128) * 2);
  EXPECT_EQ(s.toJson()["collective"], true);
  EXPECT_EQ(s.toJson()["groups"], json({"quad", 2, 1}));
  // A short, wide problem: the quads would stack along n, which collective
  // groups do not; one quad per block, along m.
  s = chooseHierarchySchedule({64, 4096, 512, "f16", "f32"}, levels, chip);
  EXPECT_TRUE(s.collective);
  EXPECT_EQ(s.groupsM * s.groupsN, 1);
  EXPECT_EQ(s.gridN, 32);
  // No f32 collective intrinsic: lane tiles, as before.
  s = chooseHierarchySchedule({512, 512, 512, "f32", "f32"}, levels, chip);
  EXPECT_FALSE(s.collective);
  EXPECT_EQ(s.intrinsic, "");
}

json asyncChip(int64_t scratchpadBytes) {
  json doc = gridChipJson(scratchpadBytes);
  doc["memory"][1]["async_copy"] = true;
  return doc;
}

TEST(HierarchyModel, AsynchronousCopiesPipelineAsManyStagesAsFit) {
  ContractionShape shape{4096, 4096, 4096, "f16", "f32"};
  hw::Description plain = loadJson(gridChipJson(256 * 1024));
  HierarchySchedule p =
      chooseHierarchySchedule(shape, *hierarchyLevels(plain), plain);
  EXPECT_FALSE(p.asyncCopies);
  EXPECT_EQ(p.buffers, 2);
  // The same chip with asynchronous copies: the staging tile shares the
  // stages' bytes, four stages fit 256 KiB.
  hw::Description roomy = loadJson(asyncChip(256 * 1024));
  ASSERT_TRUE(hierarchyLevels(roomy)->asyncCopies);
  HierarchySchedule s =
      chooseHierarchySchedule(shape, *hierarchyLevels(roomy), roomy);
  EXPECT_TRUE(s.asyncCopies);
  EXPECT_EQ(s.buffers, kMaxStages);
  EXPECT_EQ(s.blockK, 64);
  int64_t perStage = (s.blockM * (64 + 8) + 64 * (s.blockN + 8)) * 2;
  int64_t staging = s.blockM * s.blockN * 4;
  ASSERT_GT(3 * perStage, staging);
  EXPECT_EQ(s.scratchpadBytes, 4 * perStage);
  // Three stages fit but do not divide the 64 k tiles: two.
  hw::Description three = loadJson(asyncChip(3 * perStage));
  HierarchySchedule t =
      chooseHierarchySchedule(shape, *hierarchyLevels(three), three);
  EXPECT_TRUE(t.asyncCopies);
  EXPECT_EQ(t.blockK, 64);
  EXPECT_EQ(t.buffers, 2);
  // 3 x 64 = 192 k tiles: three stages.
  HierarchySchedule u = chooseHierarchySchedule(
      {4096, 4096, 3 * 64 * 64, "f16", "f32"}, *hierarchyLevels(three), three);
  EXPECT_EQ(u.buffers, 3);
  EXPECT_EQ(u.scratchpadBytes, 3 * perStage);
  // Four k tiles: two stages, so that the loop keeps two iterations.
  HierarchySchedule v = chooseHierarchySchedule(
      {4096, 4096, 4 * 64, "f16", "f32"}, *hierarchyLevels(roomy), roomy);
  EXPECT_EQ(v.buffers, 2);
  // Lane tiles of multiply-adds (no intrinsic) are not pipelined.
  HierarchySchedule f = chooseHierarchySchedule(
      {4096, 4096, 4096, "f32", "f32"}, *hierarchyLevels(roomy), roomy);
  EXPECT_FALSE(f.asyncCopies);
}

TEST(HierarchyModel, SmallScratchpadShrinksTheKStep) {
  hw::Description roomy = loadJson(gridChipJson());
  hw::Description tight = loadJson(gridChipJson(24 * 1024));
  ContractionShape shape{4096, 4096, 4096, "f16", "f32"};
  HierarchySchedule a =
      chooseHierarchySchedule(shape, *hierarchyLevels(roomy), roomy);
  HierarchySchedule b =
      chooseHierarchySchedule(shape, *hierarchyLevels(tight), tight);
  EXPECT_LE(b.scratchpadBytes, 24 * 1024);
  EXPECT_LT(b.blockK * b.buffers, a.blockK * a.buffers);
}

TEST(HierarchyModel, SmallProblemsUseMoreSmallerBlocks) {
  hw::Description chip = loadJson(gridChipJson());
  HierarchyLevels levels = *hierarchyLevels(chip);
  // 128 x 128: four groups per block would give 4 blocks of 64 instances;
  // halving the groups until every instance has a block or one group is
  // left.
  HierarchySchedule s =
      chooseHierarchySchedule({128, 128, 256, "f16", "f32"}, levels, chip);
  EXPECT_EQ(s.groupsM * s.groupsN, 1);
  EXPECT_EQ(s.gridM * s.gridN, (128 / s.blockM) * (128 / s.blockN));
  EXPECT_GT(s.gridM * s.gridN, 4);
}

TEST(HierarchyModel, BatchCountsTowardFillingTheBlocks) {
  hw::Description chip = loadJson(gridChipJson());
  HierarchyLevels levels = *hierarchyLevels(chip);
  // 128 x 128 alone leaves one group per block (above); 16 of them need
  // half as many blocks per product to give the 64 instances one each, 64
  // of them none fewer than the four groups of a whole block give.
  auto batched = [&](int64_t batch) {
    ContractionShape shape{128, 128, 256, "f16", "f32"};
    shape.batch = batch;
    return chooseHierarchySchedule(shape, levels, chip);
  };
  HierarchySchedule one = batched(1), sixteen = batched(16), many = batched(64);
  EXPECT_EQ(one.groupsM * one.groupsN, 1);
  EXPECT_EQ(sixteen.groupsM * sixteen.groupsN, 2);
  EXPECT_EQ(many.groupsM * many.groupsN, 4);
  EXPECT_EQ(sixteen.gridBatch, 16);
  EXPECT_GE(sixteen.gridM * sixteen.gridN * sixteen.gridBatch, 64);
  EXPECT_LT(sixteen.gridM * sixteen.gridN * sixteen.gridBatch / 2, 64);
  // The recorded grid names the batch (outermost) when there is one.
  EXPECT_EQ(sixteen.toJson()["grid"], json({16, sixteen.gridM, sixteen.gridN}));
  EXPECT_EQ(one.toJson()["grid"].size(), 2u);
}

TEST(HierarchyModel, RowsFillTheBlocks) {
  HierarchyLevels levels = *hierarchyLevels(loadJson(gridChipJson()));
  // A block holds its 4 groups while that leaves every one of the 64
  // instances a block; fewer rows get smaller blocks.
  RowSchedule many = chooseRowSchedule(1000, levels);
  EXPECT_EQ(many.groupsPerBlock, 4);
  EXPECT_EQ(many.blocks, 250);
  // 255 rows: 64 blocks of 4 (the last one with 3 rows).
  RowSchedule odd = chooseRowSchedule(255, levels);
  EXPECT_EQ(odd.groupsPerBlock, 4);
  EXPECT_EQ(odd.blocks, 64);
  RowSchedule few = chooseRowSchedule(100, levels);
  EXPECT_EQ(few.groupsPerBlock, 1);
  EXPECT_EQ(few.blocks, 100);
  RowSchedule single = chooseRowSchedule(1, levels);
  EXPECT_EQ(single.groupsPerBlock, 1);
  EXPECT_EQ(single.blocks, 1);
}

TEST(HierarchyModel, NoMatchingIntrinsicMeansLaneTiles) {
  hw::Description chip = loadJson(gridChipJson());
  HierarchySchedule s = chooseHierarchySchedule(
      {4096, 4096, 4096, "f32", "f32"}, *hierarchyLevels(chip), chip);
  EXPECT_TRUE(s.intrinsic.empty());
  // The largest power-of-two tile with accumulators, a column and a row in
  // half the registers: 8 x 8 (64 + 16 <= 127; 8 x 16 needs 152).
  EXPECT_EQ(s.fragM, 8);
  EXPECT_EQ(s.fragN, 8);
  // 32 lanes as 4 x 8 (n contiguous), one element of padding per row.
  EXPECT_EQ(s.groupM, 4 * 8);
  EXPECT_EQ(s.groupN, 8 * 8);
  EXPECT_EQ(s.padElements, 1);
  EXPECT_LE(s.scratchpadBytes, 102400);
}

TEST(HierarchyModel, JsonNamesTheDecisions) {
  hw::Description chip = loadJson(gridChipJson());
  HierarchySchedule s = chooseHierarchySchedule({512, 512, 512, "f16", "f32"},
                                                *hierarchyLevels(chip), chip);
  json doc = s.toJson();
  EXPECT_EQ(doc["intrinsic"], "mm16x8x16");
  EXPECT_EQ(doc["scratchpad"][0], "tiles");
  EXPECT_EQ(doc["buffers"], s.buffers);
  EXPECT_EQ(doc["block"][1], s.blockM);
}

} // namespace
