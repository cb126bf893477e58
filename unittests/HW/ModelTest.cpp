//===- ModelTest.cpp - Formulas of the derived model ----------------------===//

#include "strata/HW/Model.h"

#include <gtest/gtest.h>

using namespace strata::hw;

namespace {

/// 1 GHz, 4 cores of 8 lanes; DRAM 10 GB/s, a 64 KiB scratchpad per core at
/// 100 GB/s; 256-bit vectors with 2 FMA pipes; one 8x8x4 f16 matrix op per
/// cycle per core and a slower f32 one with two fidelities.
Description tinyChip() {
  LoadResult result = parseDescription(R"({
    "name": "tiny-chip", "plugin": "cpu", "arch": "test-v1",
    "summary": "a made-up chip for the model tests",
    "clock_hz": 1e9,
    "compute": [{"name": "chip", "count": 1}, {"name": "core", "count": 4},
                {"name": "lane", "count": 8}],
    "memory": [
      {"name": "dram", "kind": "dram", "capacity_bytes": 1073741824,
       "owner": "chip", "bandwidth_bytes_per_s": 10e9, "latency_cycles": 200},
      {"name": "l1", "kind": "scratchpad", "capacity_bytes": 65536,
       "owner": "core", "bandwidth_bytes_per_s": 100e9, "latency_cycles": 4,
       "engine": {"kind": "noc", "bytes_per_cycle": 16, "flit_bytes": 16,
                  "hop_latency_cycles": 3}}
    ],
    "vector": {"width_bits": 256, "element_types": ["f32", "f16"],
               "level": "core", "fma_pipes": 2},
    "matrix": [
      {"name": "mm_f16", "m": 8, "n": 8, "k": 4, "a": "f16", "b": "f16",
       "acc": "f32", "level": "core", "cycles_per_instruction": 1},
      {"name": "mm_f32", "m": 8, "n": 8, "k": 8, "a": "f32", "b": "f32",
       "acc": "f32", "level": "core", "cycles_per_instruction": 4,
       "fidelities": ["fast", "exact"],
       "fidelity_passes": {"fast": 1, "exact": 4}}
    ],
    "peaks_flops": {"f16": 1.5e12}
  })",
                                       "tiny.json");
  EXPECT_TRUE(result) << result.formatErrors();
  return result ? *result.description : Description();
}

double perLevel(const TypePeak &peak, const std::string &level) {
  for (const LevelValue &value : peak.perLevel)
    if (value.level == level)
      return value.value;
  return -1;
}

} // namespace

TEST(HWModel, ElementTypes) {
  EXPECT_EQ(elementTypeBits("f64"), 64);
  EXPECT_EQ(elementTypeBits("tf32"), 32);
  EXPECT_EQ(elementTypeBits("bf16"), 16);
  EXPECT_EQ(elementTypeBits("fp8e5m2"), 8);
  EXPECT_EQ(elementTypeBits("i8"), 8);
  EXPECT_EQ(elementTypeBits("f8"), 0);
  EXPECT_EQ(knownElementTypes().size(), 10u);
  for (const std::string &type : knownElementTypes())
    EXPECT_GT(elementTypeBits(type), 0) << type;
}

TEST(HWModel, VectorPeak) {
  Description desc = tinyChip();
  DerivedModel model = deriveModel(desc);
  // f32 vector: 256/32 lanes * 2 FLOP * 2 pipes * 1e9 Hz = 32 GFLOP/s per
  // core, times 4 cores. The f32 matrix op at its fastest fidelity is
  // 2*8*8*8 / 4 cycles * 1e9 = 256 GFLOP/s per core, which wins.
  const TypePeak *f32 = model.findPeak("f32");
  ASSERT_NE(f32, nullptr);
  EXPECT_DOUBLE_EQ(f32->flops, 4 * 256e9);
  EXPECT_EQ(f32->source, "mm_f32");
  EXPECT_EQ(f32->sourceLevel, "core");

  desc.matrix.pop_back(); // without it the vector unit is the f32 peak
  model = deriveModel(desc);
  f32 = model.findPeak("f32");
  ASSERT_NE(f32, nullptr);
  EXPECT_DOUBLE_EQ(f32->flops, 4 * 32e9);
  EXPECT_EQ(f32->source, "vector");
  EXPECT_DOUBLE_EQ(perLevel(*f32, "chip"), 128e9);
  EXPECT_DOUBLE_EQ(perLevel(*f32, "core"), 32e9);
  EXPECT_DOUBLE_EQ(perLevel(*f32, "lane"), -1); // below the issuing level
}

TEST(HWModel, MatrixPeakAndFidelities) {
  Description desc = tinyChip();
  DerivedModel model = deriveModel(desc);
  // f16: the vector gives 16 lanes * 2 * 2 * 1e9 * 4 = 256 GFLOP/s; the
  // matrix op 2*8*8*4 = 512 FLOP per cycle per core, 2048 GFLOP/s in all.
  const TypePeak *f16 = model.findPeak("f16");
  ASSERT_NE(f16, nullptr);
  EXPECT_DOUBLE_EQ(f16->flops, 2048e9);
  EXPECT_EQ(f16->source, "mm_f16");
  EXPECT_DOUBLE_EQ(perLevel(*f16, "core"), 512e9);
  EXPECT_DOUBLE_EQ(f16->given, 1.5e12);
  EXPECT_EQ(model.findPeak("bf16"), nullptr);
  EXPECT_EQ(model.peakFlops("bf16"), 0);

  ASSERT_EQ(model.matrix.size(), 2u);
  EXPECT_EQ(model.matrix[0].name, "mm_f16"); // preference order kept
  EXPECT_DOUBLE_EQ(model.matrix[0].flopsPerInstruction, 512);
  EXPECT_EQ(model.matrix[0].issuingUnits, 4);
  ASSERT_EQ(model.matrix[0].flopsByFidelity.size(), 1u);
  EXPECT_EQ(model.matrix[0].flopsByFidelity[0].first, "");

  const IntrinsicModel &f32 = model.matrix[1];
  ASSERT_EQ(f32.flopsByFidelity.size(), 2u);
  EXPECT_EQ(f32.flopsByFidelity[0].first, "fast");
  EXPECT_DOUBLE_EQ(f32.flopsByFidelity[0].second, 1024e9);
  EXPECT_EQ(f32.flopsByFidelity[1].first, "exact");
  EXPECT_DOUBLE_EQ(f32.flopsByFidelity[1].second, 256e9);
  EXPECT_DOUBLE_EQ(f32.flops, 1024e9);

  EXPECT_EQ(model.bestMatrixType, "f16");
}

TEST(HWModel, MemoryBandwidthCapacityAndBalance) {
  Description desc = tinyChip();
  DerivedModel model = deriveModel(desc);
  ASSERT_EQ(model.memory.size(), 2u);

  const MemoryModel *dram = model.findMemory("dram");
  ASSERT_NE(dram, nullptr);
  EXPECT_EQ(dram->instances, 1);
  EXPECT_DOUBLE_EQ(dram->bandwidthTotal, 10e9);
  EXPECT_DOUBLE_EQ(dram->capacityTotal, 1073741824.0);
  // Balance: chip FLOP/s over the level's total bandwidth.
  EXPECT_DOUBLE_EQ(dram->balanceF32, 1024e9 / 10e9);
  EXPECT_DOUBLE_EQ(dram->balanceMatrix, 2048e9 / 10e9);

  const MemoryModel *l1 = model.findMemory("l1");
  ASSERT_NE(l1, nullptr);
  EXPECT_EQ(l1->instances, 4);
  EXPECT_DOUBLE_EQ(l1->bandwidthPerInstance, 100e9);
  EXPECT_DOUBLE_EQ(l1->bandwidthTotal, 400e9);
  EXPECT_DOUBLE_EQ(l1->capacityTotal, 4 * 65536.0);
  ASSERT_EQ(l1->capacityPerUnit.size(), 3u);
  EXPECT_EQ(l1->capacityPerUnit[0].level, "chip");
  EXPECT_DOUBLE_EQ(l1->capacityPerUnit[0].value, 4 * 65536.0);
  EXPECT_DOUBLE_EQ(l1->capacityPerUnit[1].value, 65536.0);
  EXPECT_DOUBLE_EQ(l1->capacityPerUnit[2].value, 65536.0 / 8);
  EXPECT_DOUBLE_EQ(l1->balanceMatrix, 2048e9 / 400e9);
  EXPECT_EQ(model.findMemory("l2"), nullptr);
}

TEST(HWModel, BestMatrixTypeIsFloatingPoint) {
  Description desc = tinyChip();
  desc.peakFlops.clear();
  desc.matrix[0].aType = desc.matrix[0].bType = "i8";
  desc.matrix[0].accType = "i32";
  DerivedModel model = deriveModel(desc);
  EXPECT_DOUBLE_EQ(model.peakFlops("i8"), 2048e9);
  EXPECT_EQ(model.bestMatrixType, "f32");
}

TEST(HWModel, NoMatrixUnits) {
  Description desc = tinyChip();
  desc.matrix.clear();
  desc.peakFlops.clear();
  DerivedModel model = deriveModel(desc);
  EXPECT_EQ(model.bestMatrixType, "");
  EXPECT_DOUBLE_EQ(model.memory[0].balanceMatrix, 0);
  EXPECT_DOUBLE_EQ(model.memory[0].balanceF32, 128e9 / 10e9);
  std::string text = formatModel(desc, model);
  EXPECT_EQ(text.find("matrix"), std::string::npos) << text;
}

TEST(HWModel, DefaultDescriptionIsHarmless) {
  Description empty;
  DerivedModel model = deriveModel(empty);
  EXPECT_TRUE(model.peaks.empty());
  EXPECT_TRUE(model.memory.empty());
  EXPECT_FALSE(formatModel(empty, model).empty());
  EXPECT_FALSE(formatSummary(empty).empty());
}

TEST(HWModel, FormatQuantity) {
  EXPECT_EQ(formatQuantity(989.4e12, "FLOP/s"), "989.4 TFLOP/s");
  EXPECT_EQ(formatQuantity(4.8e12, "B/s"), "4.8 TB/s");
  EXPECT_EQ(formatQuantity(1.83e9, "Hz"), "1.83 GHz");
  EXPECT_EQ(formatQuantity(1536 * 1024, "B", true), "1.5 MiB");
  EXPECT_EQ(formatQuantity(233472, "B", true), "228 KiB");
  EXPECT_EQ(formatQuantity(12, "B"), "12 B");
}

TEST(HWModel, FormatModelAndSummary) {
  Description desc = tinyChip();
  DerivedModel model = deriveModel(desc);
  std::string text = formatModel(desc, model);
  for (const char *part :
       {"tiny-chip: a made-up chip", "plugin cpu, arch test-v1, clock 1 GHz",
        "chip 1 > core 4 > lane 8", "2.048 TFLOP/s", "mm_f16 @core",
        "(given 1.5 TFLOP/s)", "dram", "l1", "engine noc x1", "16 B flits",
        "1. mm_f16", "fast 1.024 TFLOP/s, exact 256 GFLOP/s"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " in\n" << text;

  EXPECT_EQ(formatSummary(desc),
            "tiny-chip: plugin cpu, arch test-v1, 1 GHz; compute chip 1 > "
            "core 4 > lane 8; memory dram, l1; vector 256-bit; 2 matrix "
            "intrinsics");
}
