//===- GpuModelTest.cpp - The hierarchy model on the shipped GPUs ---------===//
//
// The decisions of HierarchyModel.h for the A100 and H200 descriptions, and
// the launch sequence the plugin derives from a compiled program.
//
//===----------------------------------------------------------------------===//
#include "Bundle.h"

#include "strata/Pipeline/Compiler.h"
#include "strata/Schedule/HierarchyModel.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

int64_t maxSharedPerBlock(const hw::Description &chip) {
  return chip.targetOptions.at("max_shared_bytes_per_block").get<int64_t>();
}

TEST(GpuModel, LevelsOfTheShippedGpus) {
  for (const char *name : {"nvidia-a100", "nvidia-h200"}) {
    hw::Description chip = loadShipped(name);
    std::optional<HierarchyLevels> levels = hierarchyLevels(chip);
    ASSERT_TRUE(levels) << name;
    EXPECT_EQ(levels->block, "sm");
    EXPECT_EQ(levels->group, "warp");
    EXPECT_EQ(levels->lane, "lane");
    EXPECT_EQ(levels->scratchpad, "shared");
    EXPECT_EQ(levels->lanes, 32);
  }
  EXPECT_EQ(hierarchyLevels(loadShipped("nvidia-a100"))->groups, 4);
  // warpgroup (4) x warp (4)
  EXPECT_EQ(hierarchyLevels(loadShipped("nvidia-h200"))->groups, 16);
}

TEST(GpuModel, LargeF16GemmOnTheH200) {
  hw::Description chip = loadShipped("nvidia-h200");
  HierarchyLevels levels = *hierarchyLevels(chip);
  HierarchySchedule s =
      chooseHierarchySchedule({4096, 4096, 4096, "f16", "f32"}, levels, chip);
  // The warpgroup-level intrinsic: m64n256 would need 128 accumulator
  // registers per lane (> 127), m64n128 needs 64.
  EXPECT_EQ(s.intrinsic, "wgmma_m64n128k16_f16");
  EXPECT_TRUE(s.collective);
  EXPECT_EQ(s.levels.group, "warpgroup");
  EXPECT_EQ(s.levels.lanes, 128);
  EXPECT_EQ(s.groupM, 64);
  EXPECT_EQ(s.groupN, 128);
  EXPECT_EQ(s.accumulatorRegisters, 64);
  // Four warpgroups stacked along m: 256 x 128 blocks, 512 of them.
  EXPECT_EQ(s.groupsM, 4);
  EXPECT_EQ(s.groupsN, 1);
  EXPECT_EQ(s.lanesPerBlock(), 512);
  EXPECT_EQ(s.gridM * s.gridN, 512);
  // Four stages of unpadded 64-wide k tiles (192 KiB), the f32 staging tile
  // (128 KiB) over them.
  EXPECT_TRUE(s.asyncCopies);
  EXPECT_EQ(s.buffers, 4);
  EXPECT_EQ(s.blockK, 64);
  EXPECT_EQ(s.padElements, 0);
  EXPECT_EQ(s.scratchpadBytes, 4 * (256 * 64 + 64 * 128) * 2);
  EXPECT_LE(s.scratchpadBytes, maxSharedPerBlock(chip));
}

TEST(GpuModel, A100KeepsTheWarpIntrinsic) {
  hw::Description chip = loadShipped("nvidia-a100");
  HierarchySchedule s = chooseHierarchySchedule(
      {4096, 4096, 4096, "f16", "f32"}, *hierarchyLevels(chip), chip);
  EXPECT_EQ(s.intrinsic, "mma_m16n8k16_f16");
  EXPECT_FALSE(s.collective);
  EXPECT_EQ(s.levels.group, "warp");
  EXPECT_EQ(s.padElements, 8);
}

TEST(GpuModel, SmallGemmFillsTheA100) {
  hw::Description chip = loadShipped("nvidia-a100");
  HierarchySchedule s = chooseHierarchySchedule({256, 384, 512, "f16", "f32"},
                                                *hierarchyLevels(chip), chip);
  // 4 warps per block would give 12 blocks for 108 SMs: one warp each.
  EXPECT_EQ(s.groupsM * s.groupsN, 1);
  EXPECT_EQ(s.gridM * s.gridN, 48);
  EXPECT_LE(s.scratchpadBytes, maxSharedPerBlock(chip));
}

TEST(GpuModel, BatchedGemmKeepsLargeBlocksOnTheH200) {
  hw::Description chip = loadShipped("nvidia-h200");
  // Attention's P V: 32 products of 1024 x 1024 by 1024 x 128. Alone, one
  // product of 128 x 128 blocks gives 8 blocks for 132 SMs (one-warpgroup
  // blocks would still give 16); with the batch, 256 blocks of two
  // warpgroups.
  ContractionShape shape{1024, 128, 1024, "bf16", "f32"};
  shape.batch = 32;
  HierarchySchedule s =
      chooseHierarchySchedule(shape, *hierarchyLevels(chip), chip);
  EXPECT_EQ(s.intrinsic, "wgmma_m64n128k16_bf16");
  EXPECT_EQ(s.groupsM * s.groupsN, 2);
  EXPECT_EQ(s.gridM * s.gridN * s.gridBatch, 256);
  EXPECT_LE(s.scratchpadBytes, maxSharedPerBlock(chip));
}

TEST(GpuModel, ShortKPipelinesTwoIterations) {
  // k = 64 and 128 (attention's head dimensions): wgmma's k tiles of 64
  // would leave one or two of them, a k loop of one iteration; the warps'
  // mma.sync takes shallower tiles instead, at least three of them.
  for (const char *name : {"nvidia-a100", "nvidia-h200"})
    for (int64_t k : {64, 128}) {
      hw::Description chip = loadShipped(name);
      HierarchySchedule s = chooseHierarchySchedule(
          {1024, 1024, k, "bf16", "f32"}, *hierarchyLevels(chip), chip);
      EXPECT_EQ(s.intrinsic, "mma_m16n8k16_bf16") << name << " k=" << k;
      EXPECT_FALSE(s.collective);
      EXPECT_GE(llvm::divideCeilSigned(k, s.blockK), 3) << name;
      EXPECT_GE(llvm::divideCeilSigned(k, s.blockK * s.buffers), 2) << name;
    }
  // k = 32: two fragments, no loop to accumulate in; multiply-adds.
  hw::Description a100 = loadShipped("nvidia-a100");
  EXPECT_TRUE(chooseHierarchySchedule({1024, 1024, 32, "f16", "f32"},
                                      *hierarchyLevels(a100), a100)
                  .intrinsic.empty());
  // k = 256 keeps wgmma on the H200.
  hw::Description h200 = loadShipped("nvidia-h200");
  EXPECT_TRUE(chooseHierarchySchedule({1024, 1024, 256, "bf16", "f32"},
                                      *hierarchyLevels(h200), h200)
                  .collective);
}

TEST(GpuModel, Bf16UsesTheBf16Intrinsic) {
  hw::Description chip = loadShipped("nvidia-a100");
  HierarchySchedule s = chooseHierarchySchedule(
      {2048, 2048, 2048, "bf16", "f32"}, *hierarchyLevels(chip), chip);
  EXPECT_EQ(s.intrinsic, "mma_m16n8k16_bf16");
}

TEST(GpuModel, F32FallsBackToLaneTiles) {
  hw::Description chip = loadShipped("nvidia-h200");
  HierarchySchedule s = chooseHierarchySchedule(
      {4096, 4096, 4096, "f32", "f32"}, *hierarchyLevels(chip), chip);
  EXPECT_TRUE(s.intrinsic.empty());
  EXPECT_EQ(s.fragM * s.fragN, 64);
  EXPECT_LE(s.scratchpadBytes, maxSharedPerBlock(chip));
}

TEST(GpuModel, LaunchPlanOfACompiledMatmul) {
  TargetRegistry &registry = TargetRegistry::get();
  if (registry.pluginNames().empty())
    registerStaticTargets(registry);
  hw::LoadResult resolved = registry.resolve("nvidia-a100");
  ASSERT_TRUE(resolved) << resolved.formatErrors();
  const TargetPlugin *plugin = registry.lookup("nvidia");
  ASSERT_NE(plugin, nullptr);
  mlir::DialectRegistry dialects;
  registerStrataDialects(dialects);
  mlir::MLIRContext ctx(dialects);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(R"(
    func.func @mm(%a: tensor<128x256xf16>, %b: tensor<256x64xf16>) -> tensor<128x64xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<128x64xf32>
      %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
      %c = linalg.matmul ins(%a, %b : tensor<128x256xf16>, tensor<256x64xf16>)
                         outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
      return %c : tensor<128x64xf32>
    })",
                                              &ctx);
  ASSERT_TRUE(module);
  const hw::Description &chip = *resolved.description;
  ASSERT_TRUE(mlir::succeeded(runCoreStages(*module, chip)));
  ASSERT_TRUE(mlir::succeeded(runPluginLowering(*module, *plugin, chip)));
  llvm::Expected<std::vector<nvidia::FunctionPlan>> plans =
      nvidia::launchPlans(*module);
  ASSERT_TRUE(bool(plans)) << llvm::toString(plans.takeError());
  ASSERT_EQ(plans->size(), 1u);
  const nvidia::FunctionPlan &plan = plans->front();
  EXPECT_EQ(plan.name, "mm");
  EXPECT_EQ(plan.arguments, 3); // a, b, then the result as an out-param
  ASSERT_EQ(plan.steps.size(), 1u);
  const nvidia::LaunchStep &step = plan.steps.front();
  HierarchySchedule s = chooseHierarchySchedule({128, 64, 256, "f16", "f32"},
                                                *hierarchyLevels(chip), chip);
  EXPECT_EQ(step.grid, (std::array<int64_t, 3>{s.gridN, s.gridM, 1}));
  EXPECT_EQ(step.block, (std::array<int64_t, 3>{s.lanesPerBlock(), 1, 1}));
  EXPECT_EQ(step.sharedBytes, s.scratchpadBytes);
  ASSERT_EQ(step.args.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(step.args[i].temporary);
    EXPECT_EQ(step.args[i].index, i);
  }
}

} // namespace
