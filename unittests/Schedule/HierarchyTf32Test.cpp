//===- HierarchyTf32Test.cpp - f32 operands on tf32 matrix intrinsics -----===//
//
// The hierarchy model takes a tf32 intrinsic for f32 operands only when the
// user allows it (HierarchyOptions::allowTf32); otherwise f32 keeps the
// lanes' multiply-add tiles.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/HierarchyModel.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

/// The made-up grid chip with a group-level tf32 intrinsic.
hw::Description tf32Chip() { return loadJson(tf32GridChipJson()); }

TEST(HierarchyTf32, F32KeepsMultiplyAddsByDefault) {
  hw::Description chip = tf32Chip();
  HierarchySchedule s = chooseHierarchySchedule({512, 512, 512, "f32", "f32"},
                                                *hierarchyLevels(chip), chip);
  EXPECT_EQ(s.intrinsic, "");
  EXPECT_EQ(s.fragK, 1);
  EXPECT_EQ(s.toJson()["intrinsic"], "fma");
}

TEST(HierarchyTf32, F32TakesTheTf32IntrinsicWhenAllowed) {
  hw::Description chip = tf32Chip();
  HierarchyOptions options;
  options.allowTf32 = true;
  HierarchySchedule s = chooseHierarchySchedule(
      {512, 512, 512, "f32", "f32"}, *hierarchyLevels(chip), chip, options);
  EXPECT_EQ(s.intrinsic, "mm16x8x8_tf32");
  EXPECT_EQ(s.toJson()["intrinsic"], "mm16x8x8_tf32");
  EXPECT_EQ(s.fragM, 16);
  EXPECT_EQ(s.fragN, 8);
  EXPECT_EQ(s.fragK, 8);
  // f32 elements in the scratchpad: rows padded by 16 bytes, 4 elements.
  EXPECT_EQ(s.padElements, 4);
  // 64 x 32 (or 32 x 64) per group: 64 accumulator registers per lane.
  EXPECT_EQ(s.accumulatorRegisters, 64);
}

TEST(HierarchyTf32, TheOptionChangesNothingElse) {
  hw::Description chip = tf32Chip();
  HierarchyLevels levels = *hierarchyLevels(chip);
  HierarchyOptions options;
  options.allowTf32 = true;
  // f16 still takes its own intrinsic.
  EXPECT_EQ(chooseHierarchySchedule({512, 512, 512, "f16", "f32"}, levels, chip,
                                    options)
                .intrinsic,
            "mm16x8x16");
  // Under three fragments of k the intrinsic's k loop would fold away:
  // multiply-adds, allowed or not.
  EXPECT_EQ(chooseHierarchySchedule({512, 512, 16, "f32", "f32"}, levels, chip,
                                    options)
                .intrinsic,
            "");
  // A chip without a tf32 unit: the option has no effect.
  hw::Description plain = loadJson(gridChipJson());
  EXPECT_EQ(chooseHierarchySchedule({512, 512, 512, "f32", "f32"},
                                    *hierarchyLevels(plain), plain, options)
                .intrinsic,
            "");
}

} // namespace
