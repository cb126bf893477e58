//===- LoaderTest.cpp - Validation of hardware descriptions ---------------===//

#include "strata/HW/Description.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace strata::hw;
using json = nlohmann::json;

namespace {

/// A small valid description every error test starts from.
json tinyDoc() {
  return json::parse(R"({
    "name": "tiny-chip",
    "plugin": "cpu",
    "arch": "test-v1",
    "summary": "four cores with 256-bit vectors",
    "source": ["made up for tests"],
    "clock_hz": 1e9,
    "compute": [
      {"name": "chip", "count": 1},
      {"name": "core", "count": 4},
      {"name": "lane", "count": 8}
    ],
    "memory": [
      {"name": "dram", "kind": "dram", "capacity_bytes": 1073741824,
       "owner": "chip", "bandwidth_bytes_per_s": 10e9, "latency_cycles": 200},
      {"name": "l1", "kind": "scratchpad", "capacity_bytes": 65536,
       "owner": "core", "bandwidth_bytes_per_s": 100e9, "latency_cycles": 4,
       "alignment_bytes": 64, "banks": 8,
       "engine": {"kind": "dma", "bytes_per_cycle": 32,
                  "setup_latency_cycles": 50, "queue_depth": 4}}
    ],
    "vector": {"width_bits": 256, "element_types": ["f32", "f16"],
               "level": "core", "fma_pipes": 2},
    "matrix": [
      {"name": "mm", "m": 8, "n": 8, "k": 4, "a": "f16", "b": "f16",
       "acc": "f32", "level": "core", "cycles_per_instruction": 2}
    ],
    "target_options": {"anything": [1, 2, 3]}
  })");
}

LoadResult load(const json &doc, const LoadOptions &options = {}) {
  return loadDescriptionJson(doc, "tiny.json", options);
}

/// The one diagnostic at `path`, or a failure listing every diagnostic.
const Diagnostic *errorAt(const LoadResult &result, const std::string &path) {
  const Diagnostic *found = nullptr;
  for (const Diagnostic &diag : result.errors)
    if (diag.path == path) {
      EXPECT_EQ(found, nullptr) << "two errors at " << path << ":\n"
                                << result.formatErrors();
      found = &diag;
    }
  EXPECT_NE(found, nullptr) << "no error at " << path << "; errors:\n"
                            << result.formatErrors();
  return found;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(HWLoader, TinyDescriptionLoads) {
  LoadResult result = load(tinyDoc());
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_TRUE(result.errors.empty());
  const Description &desc = *result.description;
  EXPECT_EQ(desc.name, "tiny-chip");
  EXPECT_EQ(desc.plugin, "cpu");
  EXPECT_EQ(desc.arch, "test-v1");
  EXPECT_DOUBLE_EQ(desc.clockHz, 1e9);
  ASSERT_EQ(desc.compute.size(), 3u);
  EXPECT_EQ(desc.compute[1].name, "core");
  EXPECT_EQ(desc.compute[1].count, 4);
  ASSERT_EQ(desc.memory.size(), 2u);
  EXPECT_EQ(desc.memory[0].alignmentBytes, 1); // default
  EXPECT_EQ(desc.memory[0].banks, 0);
  EXPECT_FALSE(desc.memory[0].engine.has_value());
  EXPECT_EQ(desc.memory[1].alignmentBytes, 64);
  ASSERT_TRUE(desc.memory[1].engine.has_value());
  EXPECT_EQ(desc.memory[1].engine->kind, "dma");
  EXPECT_DOUBLE_EQ(desc.memory[1].engine->setupLatencyCycles, 50);
  EXPECT_EQ(desc.memory[1].engine->count, 1);
  EXPECT_EQ(desc.memory[1].engine->extra, json({{"queue_depth", 4}}));
  ASSERT_TRUE(desc.vector.has_value());
  EXPECT_EQ(desc.vector->fmaPipes, 2);
  EXPECT_EQ(desc.vector->fmaLatencyCycles, 4); // default
  EXPECT_EQ(desc.vector->registers, 16);       // default
  ASSERT_EQ(desc.matrix.size(), 1u);
  EXPECT_EQ(desc.matrix[0].accType, "f32");
  EXPECT_TRUE(desc.peakFlops.empty());
  EXPECT_EQ(desc.targetOptions, json({{"anything", {1, 2, 3}}}));
  EXPECT_EQ(desc.document, tinyDoc());
}

TEST(HWLoader, QueriesOnTheHierarchy) {
  LoadResult result = load(tinyDoc());
  ASSERT_TRUE(result) << result.formatErrors();
  const Description &desc = *result.description;
  ASSERT_NE(desc.findCompute("core"), nullptr);
  EXPECT_EQ(desc.findCompute("core")->count, 4);
  EXPECT_EQ(desc.findCompute("l1"), nullptr);
  ASSERT_NE(desc.findMemory("l1"), nullptr);
  EXPECT_EQ(desc.findMemory("l1")->owner, "core");
  EXPECT_EQ(desc.findMemory("core"), nullptr);
  EXPECT_EQ(desc.totalUnits("chip"), 1);
  EXPECT_EQ(desc.totalUnits("core"), 4);
  EXPECT_EQ(desc.totalUnits("lane"), 32);
  EXPECT_EQ(desc.totalUnits("nothing"), 0);
}

TEST(HWLoader, MissingRequiredField) {
  json doc = tinyDoc();
  doc.erase("clock_hz");
  doc["memory"][1].erase("owner");
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  const Diagnostic *clock = errorAt(result, "/clock_hz");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->message,
            "missing required field \"clock_hz\": expected a number > 0");
  const Diagnostic *owner = errorAt(result, "/memory/1/owner");
  ASSERT_NE(owner, nullptr);
  EXPECT_EQ(owner->message,
            "missing required field \"owner\": expected a string");
}

TEST(HWLoader, WrongType) {
  json doc = tinyDoc();
  doc["clock_hz"] = "fast";
  doc["compute"][1]["count"] = true;
  doc["vector"]["element_types"] = "f32";
  doc["memory"] = json::object();
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/clock_hz")->message,
            "expected a number > 0, got \"fast\"");
  EXPECT_EQ(errorAt(result, "/compute/1/count")->message,
            "expected a positive integer, got boolean true");
  EXPECT_EQ(errorAt(result, "/vector/element_types")->message,
            "expected a non-empty array of element types, got \"f32\"");
  EXPECT_TRUE(contains(errorAt(result, "/memory")->message,
                       "expected a non-empty array of memory levels"));
}

TEST(HWLoader, ZeroOrNegativeSizes) {
  json doc = tinyDoc();
  doc["memory"][0]["capacity_bytes"] = 0;
  doc["compute"][2]["count"] = -8;
  doc["memory"][1]["bandwidth_bytes_per_s"] = 0;
  doc["memory"][1]["latency_cycles"] = -1;
  doc["matrix"][0]["k"] = 0;
  doc["matrix"][0]["cycles_per_instruction"] = -2;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/memory/0/capacity_bytes")->message,
            "expected a positive integer, got 0");
  EXPECT_EQ(errorAt(result, "/compute/2/count")->message,
            "expected a positive integer, got -8");
  EXPECT_EQ(errorAt(result, "/memory/1/bandwidth_bytes_per_s")->message,
            "expected a number > 0, got 0");
  EXPECT_EQ(errorAt(result, "/memory/1/latency_cycles")->message,
            "expected a number >= 0, got -1");
  EXPECT_EQ(errorAt(result, "/matrix/0/k")->message,
            "expected a positive integer, got 0");
  EXPECT_EQ(errorAt(result, "/matrix/0/cycles_per_instruction")->message,
            "expected a number > 0, got -2");
}

TEST(HWLoader, IntegersMayBeWrittenAsWholeFloats) {
  json doc = tinyDoc();
  doc["memory"][0]["capacity_bytes"] = 1.073741824e9;
  LoadResult result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->memory[0].capacityBytes, 1073741824);

  doc["memory"][0]["capacity_bytes"] = 2.5;
  doc["compute"][1]["count"] = 1e300;
  result = load(doc);
  EXPECT_EQ(errorAt(result, "/memory/0/capacity_bytes")->message,
            "expected a positive integer, got 2.5");
  EXPECT_EQ(errorAt(result, "/compute/1/count")->message,
            "expected a positive integer, got 1e+300");
}

TEST(HWLoader, HugeUnitCounts) {
  json doc = tinyDoc();
  doc["compute"][1]["count"] = int64_t(1) << 40;
  doc["compute"][2]["count"] = int64_t(1) << 40;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(contains(errorAt(result, "/compute/2/count")->message,
                       "expected the product of counts"));
}

TEST(HWLoader, AlignmentAndWidthArePowersOfTwo) {
  json doc = tinyDoc();
  doc["memory"][1]["alignment_bytes"] = 48;
  doc["vector"]["width_bits"] = 384;
  LoadResult result = load(doc);
  EXPECT_EQ(errorAt(result, "/memory/1/alignment_bytes")->message,
            "expected a power of two, got 48");
  EXPECT_EQ(errorAt(result, "/vector/width_bits")->message,
            "expected a power of two >= 32, got 384");
}

TEST(HWLoader, AsyncCopyIsABoolean) {
  json doc = tinyDoc();
  EXPECT_FALSE(load(doc).description->memory[1].asyncCopy);
  doc["memory"][1]["async_copy"] = true;
  EXPECT_TRUE(load(doc).description->memory[1].asyncCopy);
  doc["memory"][1]["async_copy"] = 2;
  LoadResult result = load(doc);
  ASSERT_NE(errorAt(result, "/memory/1/async_copy"), nullptr);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/async_copy")->message,
                       "expected true or false"));
}

TEST(HWLoader, BulkTensorCopyIsABooleanOnAnAsyncLevel) {
  json doc = tinyDoc();
  EXPECT_FALSE(load(doc).description->memory[1].bulkTensorCopy);
  doc["memory"][1]["async_copy"] = true;
  doc["memory"][1]["bulk_tensor_copy"] = true;
  EXPECT_TRUE(load(doc).description->memory[1].bulkTensorCopy);
  doc["memory"][1]["bulk_tensor_copy"] = "yes";
  LoadResult result = load(doc);
  ASSERT_NE(errorAt(result, "/memory/1/bulk_tensor_copy"), nullptr);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/bulk_tensor_copy")->message,
                       "expected true or false"));
  doc["memory"][1]["async_copy"] = false;
  doc["memory"][1]["bulk_tensor_copy"] = true;
  result = load(doc);
  ASSERT_NE(errorAt(result, "/memory/1/bulk_tensor_copy"), nullptr);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/bulk_tensor_copy")->message,
                       "\"async_copy\": true"));
}

TEST(HWLoader, VectorElementWiderThanTheVector) {
  json doc = tinyDoc();
  doc["vector"]["width_bits"] = 32;
  doc["vector"]["element_types"] = {"f32", "f64"};
  LoadResult result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/vector/element_types/1")->message,
                       "expected at most width_bits = 32"));
}

TEST(HWLoader, UnknownElementType) {
  json doc = tinyDoc();
  doc["matrix"][0]["acc"] = "fp32";
  LoadResult result = load(doc);
  const Diagnostic *diag = errorAt(result, "/matrix/0/acc");
  ASSERT_NE(diag, nullptr);
  EXPECT_TRUE(contains(diag->message, "unknown element type \"fp32\""));
  EXPECT_TRUE(contains(diag->message, "(did you mean \"f32\"?)"));
  EXPECT_TRUE(contains(diag->message, "expected one of f64, f32"));
}

TEST(HWLoader, MatrixShapeMustDivideTileConstraints) {
  json doc = tinyDoc();
  doc["matrix"][0]["m"] = 32;
  doc["matrix"][0]["n"] = 32;
  doc["matrix"][0]["k"] = 32;
  doc["matrix"][0]["layout"] = {{"tile", {32, 32}}, {"face", {16, 16}}};
  ASSERT_TRUE(load(doc)) << load(doc).formatErrors();

  // A sub-tile operation (8 rows of a 32-row tile) divides the tile.
  doc["matrix"][0]["m"] = 8;
  ASSERT_TRUE(load(doc)) << load(doc).formatErrors();
  // Two whole tiles along n are fine too.
  doc["matrix"][0]["n"] = 64;
  ASSERT_TRUE(load(doc)) << load(doc).formatErrors();

  doc["matrix"][0]["k"] = 24;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  const Diagnostic *diag = errorAt(result, "/matrix/0/layout");
  ASSERT_NE(diag, nullptr);
  EXPECT_TRUE(contains(diag->message,
                       "intrinsic shape does not divide its tile constraints"));
  EXPECT_TRUE(contains(diag->message, "got m=8 n=64 k=24"));

  doc["matrix"][0]["k"] = 32;
  doc["matrix"][0]["layout"]["face"] = {12, 16};
  result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/matrix/0/layout/face")->message,
                       "expected tile dims to be multiples of the face"));

  doc["matrix"][0]["layout"] = {{"tile", {32}}};
  result = load(doc);
  EXPECT_EQ(errorAt(result, "/matrix/0/layout/tile")->message,
            "expected [rows, cols] of two positive integers, got an array");
}

TEST(HWLoader, FidelitiesNeedTheirPasses) {
  json doc = tinyDoc();
  doc["matrix"][0]["fidelities"] = {"LoFi", "HiFi2"};
  doc["matrix"][0]["fidelity_passes"] = {{"LoFi", 1}, {"HiFi2", 2}};
  LoadResult result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].fidelityPasses.at("HiFi2"), 2);

  doc["matrix"][0]["fidelity_passes"] = {{"LoFi", 1}, {"HiFi3", 3}};
  result = load(doc);
  EXPECT_TRUE(
      contains(errorAt(result, "/matrix/0/fidelity_passes/HiFi3")->message,
               "unknown fidelity \"HiFi3\""));
  EXPECT_TRUE(
      contains(errorAt(result, "/matrix/0/fidelity_passes/HiFi2")->message,
               "expected the passes of fidelity HiFi2"));

  doc["matrix"][0].erase("fidelity_passes");
  result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/matrix/0/fidelity_passes")->message,
                       "missing required field"));
}

TEST(HWLoader, InputMantissaBits) {
  json doc = tinyDoc();
  LoadResult result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].inputMantissaBits, 0);
  doc["matrix"][0]["input_mantissa_bits"] = 10;
  result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].inputMantissaBits, 10);
  doc["matrix"][0]["input_mantissa_bits"] = 0;
  result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(errorAt(result, "/matrix/0/input_mantissa_bits"));
}

TEST(HWLoader, OperandAndResultRates) {
  json doc = tinyDoc();
  LoadResult result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].operandBytesPerCycleOne, 0.0);
  doc["matrix"][0]["operand_bytes_per_cycle"] = {{"one", 64}, {"two", 80}};
  doc["matrix"][0]["result_bytes_per_cycle"] = 64;
  result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].operandBytesPerCycleOne, 64.0);
  EXPECT_EQ(result.description->matrix[0].operandBytesPerCycleTwo, 80.0);
  EXPECT_EQ(result.description->matrix[0].resultBytesPerCycle, 64.0);
  doc["matrix"][0]["operand_bytes_per_cycle"] = {{"one", 64}};
  result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(errorAt(result, "/matrix/0/operand_bytes_per_cycle/two"));
  doc["matrix"][0]["operand_bytes_per_cycle"] = 64;
  result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(errorAt(result, "/matrix/0/operand_bytes_per_cycle"));
  doc["matrix"][0]["operand_bytes_per_cycle"] = {{"one", 64}, {"two", 80}};
  doc["matrix"][0]["result_bytes_per_cycle"] = -1;
  result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(errorAt(result, "/matrix/0/result_bytes_per_cycle"));
  doc["matrix"][0]["result_bytes_per_cycle"] = 64;
  doc["matrix"][0]["operand_format"] = "bfp8";
  result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].operandFormat, "bfp8");
  doc["matrix"][0]["operand_format"] = 8;
  result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_TRUE(errorAt(result, "/matrix/0/operand_format"));
}

TEST(HWLoader, DefaultFidelityIsOneOfTheIntrinsics) {
  json doc = tinyDoc();
  doc["matrix"][0]["fidelities"] = {"LoFi", "HiFi4"};
  doc["matrix"][0]["fidelity_passes"] = {{"LoFi", 1}, {"HiFi4", 4}};
  doc["matrix"][0]["default_fidelity"] = "HiFi4";
  LoadResult result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].defaultFidelity, "HiFi4");
  EXPECT_EQ(result.description->matrix[0].fastestPasses(), 1);
  doc["matrix"][0]["default_fidelity"] = "HiFi2";
  result = load(doc);
  EXPECT_FALSE(result);
  const Diagnostic *error = errorAt(result, "/matrix/0/default_fidelity");
  ASSERT_TRUE(error);
  EXPECT_TRUE(contains(error->message, "got \"HiFi2\"")) << error->message;
}

TEST(HWLoader, AccumulatorNamesAScratchpadOfTheIssuingLevel) {
  json doc = tinyDoc();
  doc["matrix"][0]["accumulator"] = "nowhere";
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  const Diagnostic *error = errorAt(result, "/matrix/0/accumulator");
  ASSERT_TRUE(error);
  EXPECT_TRUE(contains(error->message, "unknown accumulator \"nowhere\""))
      << error->message;
  doc["matrix"][0].erase("accumulator");
  result = load(doc);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->matrix[0].accumulator, "");
}

TEST(HWLoader, UnknownPlugin) {
  json doc = tinyDoc();
  LoadOptions options;
  options.knownPlugins = {"cpu", "nvidia", "tile"};
  EXPECT_TRUE(load(doc, options));
  doc["plugin"] = "tiles";
  EXPECT_TRUE(load(doc)); // no registry given: any name passes
  LoadResult result = load(doc, options);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/plugin")->message,
            "unknown plugin \"tiles\" (did you mean \"tile\"?): expected one "
            "of cpu, nvidia, tile");
}

TEST(HWLoader, UnknownLevelNamedByAnotherField) {
  json doc = tinyDoc();
  doc["memory"][1]["owner"] = "cores";
  doc["vector"]["level"] = "sm";
  doc["matrix"][0]["level"] = "warp";
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/memory/1/owner")->message,
            "unknown compute level \"cores\" (did you mean \"core\"?): "
            "expected one of chip, core, lane");
  EXPECT_TRUE(contains(errorAt(result, "/vector/level")->message,
                       "unknown compute level \"sm\""));
  EXPECT_TRUE(contains(errorAt(result, "/matrix/0/level")->message,
                       "unknown compute level \"warp\""));
}

TEST(HWLoader, DuplicateNames) {
  json doc = tinyDoc();
  doc["compute"][2]["name"] = "core";
  doc["memory"][1]["name"] = "dram";
  doc["matrix"].push_back(doc["matrix"][0]);
  doc["vector"]["level"] = "cor";
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/compute/2/name")->message,
            "duplicate compute level name \"core\": expected unique names "
            "(first used at /compute/1/name)");
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/name")->message,
                       "duplicate memory level name \"dram\""));
  EXPECT_TRUE(contains(errorAt(result, "/matrix/1/name")->message,
                       "duplicate matrix intrinsic name \"mm\""));
  // A duplicate is listed once among the known levels.
  EXPECT_EQ(errorAt(result, "/vector/level")->message,
            "unknown compute level \"cor\" (did you mean \"core\"?): "
            "expected one of chip, core");
}

TEST(HWLoader, MemoryNamesDistinctFromComputeNames) {
  json doc = tinyDoc();
  doc["memory"][0]["name"] = "chip";
  LoadResult result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/memory/0/name")->message,
                       "expected names distinct from compute levels"));
}

TEST(HWLoader, MemoryLevelsFarthestFirst) {
  json doc = tinyDoc();
  std::swap(doc["memory"][0], doc["memory"][1]);
  LoadResult result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/owner")->message,
                       "expected memory levels farthest first"));
}

TEST(HWLoader, EngineFields) {
  json doc = tinyDoc();
  doc["memory"][1]["engine"] = {{"kind", "noc"}, {"bytes_per_cycle", 32}};
  LoadResult result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/engine/flit_bytes")->message,
                       "missing required field"));

  doc["memory"][1]["engine"]["flit_bytes"] = 32;
  doc["memory"][1]["engine"]["bandwidth_by_transfer_size"] = {
      {{"bytes", 64}, {"bytes_per_cycle", 4}},
      {{"bytes", 32}, {"bytes_per_cycle", 2}}};
  result = load(doc);
  EXPECT_TRUE(contains(
      errorAt(result, "/memory/1/engine/bandwidth_by_transfer_size/1/bytes")
          ->message,
      "expected transfer sizes in increasing order"));

  doc["memory"][1]["engine"]["kind"] = "dmaa";
  result = load(doc);
  EXPECT_TRUE(contains(errorAt(result, "/memory/1/engine/kind")->message,
                       "(did you mean \"dma\"?)"));
}

TEST(HWLoader, UnknownKeysAreErrorsExceptExtensions) {
  json doc = tinyDoc();
  doc["x-vendor-note"] = "kept";
  doc["_comment"] = "ignored";
  doc["memory"][0]["x-measured"] = true;
  ASSERT_TRUE(load(doc)) << load(doc).formatErrors();

  doc["clock_Hz"] = 2e9;
  doc["memory"][0]["capacity"] = 1;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  const Diagnostic *top = errorAt(result, "/clock_Hz");
  ASSERT_NE(top, nullptr);
  EXPECT_TRUE(contains(top->message, "unknown field \"clock_Hz\" (did you "
                                     "mean \"clock_hz\"?): expected one of"));
  EXPECT_TRUE(contains(errorAt(result, "/memory/0/capacity")->message,
                       "unknown field \"capacity\""));
}

TEST(HWLoader, DescriptionNamePattern) {
  json doc = tinyDoc();
  doc["name"] = "Tiny Chip";
  EXPECT_TRUE(contains(errorAt(load(doc), "/name")->message,
                       "expected a name of lowercase letters, digits and "
                       "'-'"));
}

TEST(HWLoader, GivenPeaksAreCrossChecked) {
  json doc = tinyDoc();
  // Derived: f32 from the vector = 8 lanes * 2 * 2 pipes * 1e9 * 4 cores.
  doc["peaks_flops"] = {{"f32", 100e9}};
  ASSERT_TRUE(load(doc)) << load(doc).formatErrors();

  doc["peaks_flops"] = {{"f32", 1e12}, {"bf16", 1e12}};
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/peaks_flops/f32")->message,
            "given peak 1e+12 FLOP/s differs from the derived 1.28e+11 "
            "FLOP/s by 7.81x: expected them within 2x");
  EXPECT_TRUE(contains(errorAt(result, "/peaks_flops/bf16")->message,
                       "no vector or matrix unit computes bf16"));

  doc["peaks_flops"] = {{"f32", -1}, {"float", 1}};
  result = load(doc);
  EXPECT_EQ(errorAt(result, "/peaks_flops/f32")->message,
            "expected a number > 0, got -1");
  EXPECT_TRUE(contains(errorAt(result, "/peaks_flops/float")->message,
                       "unknown element type"));
}

TEST(HWLoader, AllErrorsAtOnce) {
  json doc = tinyDoc();
  doc.erase("arch");
  doc["clock_hz"] = 0;
  doc["compute"][1]["count"] = 0;
  doc["memory"][0]["kind"] = "sram";
  doc["memory"][1]["owner"] = "tile";
  doc["vector"]["level"] = "cluster";
  doc["matrix"][0]["a"] = "f12";
  doc["typo"] = 1;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  EXPECT_FALSE(result.description.has_value());
  for (const char *path :
       {"/arch", "/clock_hz", "/compute/1/count", "/memory/0/kind",
        "/memory/1/owner", "/vector/level", "/matrix/0/a", "/typo"})
    errorAt(result, path);
  EXPECT_EQ(result.errors.size(), 8u) << result.formatErrors();
  for (const Diagnostic &diag : result.errors)
    EXPECT_TRUE(contains(diag.message, "expected")) << diag.message;
}

TEST(HWLoader, NotAnObject) {
  LoadResult result = load(json::array());
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].path, "");
  EXPECT_EQ(result.errors[0].message,
            "expected a JSON object at the top level, got an array");
}

TEST(HWLoader, DeepNestingIsRejected) {
  json doc = tinyDoc();
  json deep = 1;
  for (int i = 0; i < 200; ++i)
    deep = json::array({deep});
  doc["target_options"]["deep"] = deep;
  LoadResult result = load(doc);
  EXPECT_FALSE(result);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_TRUE(contains(result.errors[0].message, "nests too deeply"));
}

TEST(HWParse, SyntaxErrorHasLineAndColumn) {
  std::string text = "{\n  \"name\": \"x\",\n  \"clock_hz\": 1e9,,\n}\n";
  LoadResult result = parseDescription(text, "bad.json");
  EXPECT_FALSE(result);
  ASSERT_EQ(result.errors.size(), 1u);
  const Diagnostic &diag = result.errors[0];
  EXPECT_EQ(diag.line, 3);
  EXPECT_EQ(diag.column, 19);
  EXPECT_TRUE(contains(diag.message, "malformed JSON: "));
  EXPECT_TRUE(contains(diag.message, "expected string literal"));
  EXPECT_TRUE(contains(result.formatErrors(),
                       "bad.json:3:19: error: malformed JSON: "));
}

TEST(HWParse, SyntaxErrorAtEndOfInput) {
  LoadResult result = parseDescription("{\"a\": [1, 2", "cut.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].line, 1);
  EXPECT_EQ(result.errors[0].column, 12);
  EXPECT_TRUE(contains(result.errors[0].message, "unexpected end of input"));

  result = parseDescription("", "empty.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].line, 1);
  EXPECT_EQ(result.errors[0].column, 1);
}

TEST(HWParse, DuplicateKeysAreErrors) {
  std::string text = tinyDoc().dump();
  // Repeat a key inside the second memory level.
  size_t pos = text.find("\"owner\":\"core\"");
  ASSERT_NE(pos, std::string::npos);
  text.insert(pos, "\"owner\":\"chip\",");
  LoadResult result = parseDescription(text, "dup.json");
  EXPECT_FALSE(result);
  EXPECT_EQ(errorAt(result, "/memory/1/owner")->message,
            "duplicate key \"owner\": expected each key once in an object");
}

TEST(HWParse, TextRoundTrip) {
  LoadResult result = parseDescription(tinyDoc().dump(2), "tiny.json");
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.sourceName, "tiny.json");
  EXPECT_EQ(result.description->name, "tiny-chip");
}

TEST(HWParse, FormatErrors) {
  LoadResult result;
  result.sourceName = "chip.json";
  result.errors.push_back({"/memory/2/capacity_bytes", "expected X", 0, 0});
  result.errors.push_back({"", "expected Y", 0, 0});
  result.errors.push_back({"", "malformed JSON: expected Z", 4, 7});
  EXPECT_EQ(result.formatErrors(),
            "chip.json: error: at /memory/2/capacity_bytes: expected X\n"
            "chip.json: error: expected Y\n"
            "chip.json:4:7: error: malformed JSON: expected Z\n");
}

TEST(HWParse, LoadFile) {
  std::string path = ::testing::TempDir() + "strata-hw-tiny.json";
  {
    std::ofstream out(path);
    out << tinyDoc().dump(2);
  }
  LoadResult result = loadDescriptionFile(path);
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.sourceName, path);

  result = loadDescriptionFile(path + ".missing");
  EXPECT_FALSE(result);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_TRUE(contains(result.errors[0].message, "cannot read the file"));
  std::remove(path.c_str());
}
