//===- ShippedTest.cpp - The descriptions shipped with Strata -------------===//

#include "strata/HW/Model.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace strata::hw;

namespace {

LoadOptions shippedOptions() {
  LoadOptions options;
  options.knownPlugins = {"cpu", "nvidia", "tile"};
  return options;
}

Description loadShipped(const std::string &name) {
  std::optional<std::string> text = shippedDescriptionText(name);
  EXPECT_TRUE(text.has_value()) << name;
  if (!text)
    return Description();
  LoadResult result =
      parseDescription(*text, "<" + name + ">", shippedOptions());
  EXPECT_TRUE(result) << result.formatErrors();
  return result ? *result.description : Description();
}

/// |actual / expected - 1| <= tolerance.
::testing::AssertionResult near(double actual, double expected,
                                double tolerance) {
  if (expected != 0 && std::abs(actual / expected - 1) <= tolerance)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << actual << " is not within " << tolerance * 100 << "% of "
         << expected;
}

} // namespace

TEST(HWShipped, AllArePresent) {
  std::vector<std::string> names = shippedDescriptionNames();
  for (const char *name :
       {"host-x86-avx2", "host-x86-avx512", "nvidia-a100", "nvidia-h100-sxm",
        "nvidia-h200", "tile-wormhole-n150", "tile-blackhole-p150"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_FALSE(shippedDescriptionText("no-such-chip").has_value());
}

TEST(HWShipped, AllAreValidAndCiteTheirSources) {
  for (const std::string &name : shippedDescriptionNames()) {
    SCOPED_TRACE(name);
    Description desc = loadShipped(name);
    EXPECT_EQ(desc.name, name); // the file stem is the name
    EXPECT_FALSE(desc.summary.empty());
    ASSERT_TRUE(desc.document.contains("source"));
    EXPECT_FALSE(desc.document["source"].empty());
    EXPECT_EQ(desc.compute.front().count, 1);

    DerivedModel model = deriveModel(desc);
    EXPECT_GT(model.peakFlops("f32"), 0);
    for (const MemoryModel &level : model.memory) {
      EXPECT_GT(level.bandwidthTotal, 0) << level.name;
      EXPECT_GT(level.balanceF32, 0) << level.name;
    }
    std::string text = formatModel(desc, model);
    size_t lines = std::count(text.begin(), text.end(), '\n');
    EXPECT_LE(lines, 48u) << text; // one screen
  }
}

TEST(HWShipped, CpuPeaks) {
  DerivedModel avx512 = deriveModel(loadShipped("host-x86-avx512"));
  // 2 cores * 3.5 GHz * 16 f32 lanes * 2 FLOP per FMA * 2 FMA pipes.
  EXPECT_DOUBLE_EQ(avx512.peakFlops("f32"), 2 * 3.5e9 * 16 * 2 * 2);
  EXPECT_DOUBLE_EQ(avx512.peakFlops("f64"), 2 * 3.5e9 * 8 * 2 * 2);

  DerivedModel avx2 = deriveModel(loadShipped("host-x86-avx2"));
  EXPECT_DOUBLE_EQ(avx2.peakFlops("f32"), 8 * 3.0e9 * 8 * 2 * 2);
  EXPECT_EQ(avx2.bestMatrixType, "");
  // DRAM balance of an 8-core AVX2 host: 768 GFLOP/s over 38.4 GB/s.
  EXPECT_DOUBLE_EQ(avx2.findMemory("dram")->balanceF32, 20);
}

TEST(HWShipped, NvidiaPeaks) {
  Description a100 = loadShipped("nvidia-a100");
  DerivedModel a100Model = deriveModel(a100);
  EXPECT_TRUE(near(a100Model.peakFlops("bf16"), 312e12, 0.01));
  EXPECT_TRUE(near(a100Model.peakFlops("tf32"), 156e12, 0.01));
  EXPECT_TRUE(near(a100Model.peakFlops("f32"), 19.5e12, 0.01));
  EXPECT_EQ(a100Model.findPeak("bf16")->source, "mma_m16n8k16_bf16");
  EXPECT_EQ(a100.findMemory("shared")->capacityBytes, 164 * 1024);

  for (const char *name : {"nvidia-h100-sxm", "nvidia-h200"}) {
    SCOPED_TRACE(name);
    Description desc = loadShipped(name);
    DerivedModel model = deriveModel(desc);
    double bf16 = model.peakFlops("bf16");
    EXPECT_GT(bf16, 989e12 / 2);
    EXPECT_LT(bf16, 989e12 * 2);
    EXPECT_TRUE(near(bf16, 989.4e12, 0.01));
    EXPECT_TRUE(near(model.peakFlops("fp8e4m3"), 1978.9e12, 0.01));
    EXPECT_EQ(model.findPeak("bf16")->source, "wgmma_m64n256k16_bf16");
    EXPECT_EQ(model.findPeak("bf16")->sourceLevel, "warpgroup");
    EXPECT_EQ(desc.matrix.front().name, "wgmma_m64n256k16_bf16");
    EXPECT_EQ(desc.totalUnits("sm"), 132);
    EXPECT_EQ(desc.findMemory("shared")->capacityBytes, 228 * 1024);
    ASSERT_TRUE(desc.findMemory("shared")->engine.has_value());
    EXPECT_EQ(desc.findMemory("shared")->engine->kind, "tma");
    EXPECT_EQ(desc.findMemory("l2")->capacityBytes, 50 * 1024 * 1024);
  }
  DerivedModel h200 = deriveModel(loadShipped("nvidia-h200"));
  EXPECT_DOUBLE_EQ(h200.findMemory("hbm")->bandwidthTotal, 4.8e12);
  DerivedModel h100 = deriveModel(loadShipped("nvidia-h100-sxm"));
  EXPECT_DOUBLE_EQ(h100.findMemory("hbm")->bandwidthTotal, 3.35e12);
}

TEST(HWShipped, TilePeaks) {
  Description wormhole = loadShipped("tile-wormhole-n150");
  DerivedModel wh = deriveModel(wormhole);
  EXPECT_EQ(wormhole.totalUnits("core"), 64);
  // A 32x32x32 tile matmul (65536 FLOP) takes 16 cycles at LoFi: 4096
  // FLOP/cycle per core, 64 cores at 1 GHz.
  EXPECT_DOUBLE_EQ(wh.peakFlops("bf16"), 64 * 4096 * 1e9);
  ASSERT_FALSE(wh.matrix.empty());
  const IntrinsicModel &matmul = wh.matrix.front();
  ASSERT_EQ(matmul.flopsByFidelity.size(), 4u);
  EXPECT_EQ(matmul.flopsByFidelity[3].first, "HiFi4");
  EXPECT_DOUBLE_EQ(matmul.flopsByFidelity[3].second, 64 * 1024 * 1e9);
  const MemoryLevel *l1 = wormhole.findMemory("l1");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->capacityBytes, 1499136);
  ASSERT_TRUE(l1->engine.has_value());
  EXPECT_EQ(l1->engine->kind, "noc");
  EXPECT_EQ(l1->engine->flitBytes, 32);
  EXPECT_EQ(l1->engine->count, 2);
  EXPECT_TRUE(l1->engine->extra.contains("bandwidth_by_transfer_size"));
  EXPECT_EQ(wormhole.findMemory("dram")->banks, 12);
  EXPECT_EQ(wormhole.matrix.front().layout["tile"], nlohmann::json({32, 32}));
  EXPECT_EQ(wormhole.targetOptions["dst"]["tiles_bf16"], 16);

  Description blackhole = loadShipped("tile-blackhole-p150");
  DerivedModel bh = deriveModel(blackhole);
  EXPECT_EQ(blackhole.totalUnits("core"), 130);
  EXPECT_DOUBLE_EQ(bh.peakFlops("bf16"), 130 * 4096 * 1.35e9);
  EXPECT_EQ(blackhole.findMemory("l1")->engine->flitBytes, 64);
  EXPECT_DOUBLE_EQ(bh.findMemory("dram")->bandwidthTotal, 512e9);
}
