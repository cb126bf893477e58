//===- GpuAttentionModelTest.cpp - Fused attention on the shipped GPUs ----===//
//
// The decisions of HierarchyAttentionModel.h for the A100 and H200
// descriptions: mma.sync m16n8k16 on both (the warp's intrinsic), blocks
// of 16 query rows per warp, and every block within the shared memory a
// block may use.
//
//===----------------------------------------------------------------------===//
#include "strata/HW/Description.h"
#include "strata/Schedule/HierarchyAttentionModel.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

HierarchyAttentionChoice choose(const std::string &chipName, int64_t batch,
                                int64_t seq, int64_t d,
                                const std::string &type) {
  hw::Description chip = loadShipped(chipName);
  std::optional<HierarchyLevels> levels = hierarchyLevels(chip);
  EXPECT_TRUE(levels);
  HierarchyAttentionShape s;
  s.batch = batch, s.queries = seq, s.keys = seq, s.headDim = d, s.valueDim = d,
  s.inputType = type;
  return chooseHierarchyAttentionSchedule(s, *levels, chip);
}

// 32 heads of 2048 x 128 in bf16 on the A100: 4 warps of 16 rows, 64-key
// tiles, the P V accumulators of 16 x 128 in 64 registers per lane.
TEST(GpuAttentionModel, A100HeadDim128) {
  HierarchyAttentionChoice c = choose("nvidia-a100", 128, 2048, 128, "bf16");
  ASSERT_TRUE(c.schedule) << c.error;
  const HierarchyAttentionSchedule &s = *c.schedule;
  EXPECT_EQ(s.intrinsic, "mma_m16n8k16_bf16");
  EXPECT_EQ(s.groups, 4);
  EXPECT_EQ(s.blockM, 64);
  EXPECT_EQ(s.blockK, 64);
  EXPECT_EQ(s.rowLanes, 2);
  EXPECT_EQ(s.gridBatch, 128);
  EXPECT_EQ(s.gridQueries, 32);
  EXPECT_EQ(s.accumulatorRegisters, 64);
  EXPECT_EQ(s.tiles.total(), 131072);
}

// The same on the H200 (16 warps per SM): 8 warps fit its shared memory.
TEST(GpuAttentionModel, H200HeadDim128) {
  HierarchyAttentionChoice c = choose("nvidia-h200", 128, 2048, 128, "f16");
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_EQ(c.schedule->intrinsic, "mma_m16n8k16_f16");
  EXPECT_EQ(c.schedule->groups, 8);
  EXPECT_EQ(c.schedule->blockK, 64);
  EXPECT_EQ(c.schedule->tiles.total(), 226304);
}

// Head dimension 64 on the H200: all 16 warps (256 rows), whose f32 scores
// and output leave room for 32-key tiles only.
TEST(GpuAttentionModel, H200HeadDim64) {
  HierarchyAttentionChoice c = choose("nvidia-h200", 256, 512, 64, "bf16");
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_EQ(c.schedule->groups, 16);
  EXPECT_EQ(c.schedule->blockM, 256);
  EXPECT_EQ(c.schedule->blockK, 32);
  EXPECT_EQ(c.schedule->tiles.total(), 210432);
}

// f32 inputs (no f32 intrinsic): the lanes' multiply-adds.
TEST(GpuAttentionModel, F32WithoutIntrinsic) {
  HierarchyAttentionChoice c = choose("nvidia-a100", 8, 256, 64, "f32");
  ASSERT_TRUE(c.schedule) << c.error;
  EXPECT_TRUE(c.schedule->intrinsic.empty());
  EXPECT_EQ(c.schedule->fragM, 16);
}

// Every schedule of real shapes fits the shared memory a block may use
// (target_options.max_shared_bytes_per_block), which is below the SM's.
TEST(GpuAttentionModel, BlocksFitTheBlockLimit) {
  for (const char *name : {"nvidia-a100", "nvidia-h200"}) {
    hw::Description chip = loadShipped(name);
    int64_t limit =
        chip.targetOptions.at("max_shared_bytes_per_block").get<int64_t>();
    for (const char *type : {"f16", "bf16", "f32"})
      for (int64_t d : {32, 64, 96, 128})
        for (int64_t seq : {1, 77, 512, 1000, 2048, 8192})
          for (int64_t batch : {1, 8, 128, 512}) {
            HierarchyAttentionChoice c = choose(name, batch, seq, d, type);
            ASSERT_TRUE(c.schedule) << name << " " << type << " d=" << d
                                    << " seq=" << seq << ": " << c.error;
            EXPECT_LE(c.schedule->tiles.total(), limit)
                << name << " " << type << " d=" << d << " seq=" << seq
                << " batch=" << batch;
          }
  }
}

} // namespace
