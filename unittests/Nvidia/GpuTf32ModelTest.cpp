//===- GpuTf32ModelTest.cpp - f32 GEMMs on the shipped GPUs' tf32 units ---===//
//
// With tf32 allowed, f32 GEMMs on the A100 and the H200 take the warps'
// mma.sync m16n8k8 tf32 (the H200's tf32 wgmma, m64n256k8, would need 128
// accumulator registers per lane); without it they keep multiply-adds.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/HierarchyModel.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

TEST(GpuTf32Model, F32GemmsTakeMmaSyncTf32OnlyWhenAllowed) {
  HierarchyOptions tf32;
  tf32.allowTf32 = true;
  for (const char *name : {"nvidia-a100", "nvidia-h200"}) {
    hw::Description chip = loadShipped(name);
    HierarchyLevels levels = *hierarchyLevels(chip);
    for (ContractionShape shape : {ContractionShape{4096, 4096, 4096},
                                   ContractionShape{1000, 1000, 1000}}) {
      HierarchySchedule exact = chooseHierarchySchedule(shape, levels, chip);
      EXPECT_EQ(exact.intrinsic, "") << name;
      EXPECT_FALSE(exact.asyncCopies) << name;
      HierarchySchedule s = chooseHierarchySchedule(shape, levels, chip, tf32);
      EXPECT_EQ(s.intrinsic, "mma_m16n8k8_tf32") << name;
      EXPECT_FALSE(s.collective) << name;
      EXPECT_EQ(s.levels.group, "warp") << name;
      EXPECT_EQ(s.fragK, 8) << name;
      EXPECT_TRUE(s.asyncCopies) << name;
      EXPECT_LE(s.scratchpadBytes, levels.scratchpadBytes) << name;
    }
  }
}

TEST(GpuTf32Model, OtherTypesIgnoreTheOption) {
  HierarchyOptions tf32;
  tf32.allowTf32 = true;
  hw::Description chip = loadShipped("nvidia-h200");
  HierarchyLevels levels = *hierarchyLevels(chip);
  ContractionShape f16{4096, 4096, 4096, "f16", "f32"};
  EXPECT_EQ(chooseHierarchySchedule(f16, levels, chip, tf32).intrinsic,
            chooseHierarchySchedule(f16, levels, chip).intrinsic);
  ContractionShape f64{512, 512, 512, "f64", "f64"};
  EXPECT_EQ(chooseHierarchySchedule(f64, levels, chip, tf32).intrinsic,
            "mma_m8n8k4_f64");
}

} // namespace
