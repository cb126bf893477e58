//===- NarrowedInputsTest.cpp - Functions whose inputs an intrinsic rounds ===//
#include "strata/Schedule/NarrowedInputs.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;
using json = nlohmann::json;

namespace {

/// The made-up grid chip with a tf32 intrinsic and an f32 one that keeps 7
/// bits (slow enough to agree with the chip's f32 peak).
hw::Description narrowingChip() {
  json doc = tf32GridChipJson();
  doc["matrix"].push_back(json::parse(R"({
    "name": "mm_f32_7bits", "m": 16, "n": 8, "k": 8, "a": "f32",
    "b": "f32", "acc": "f32", "level": "group", "cycles_per_instruction": 128,
    "input_mantissa_bits": 7})"));
  return loadJson(doc);
}

TEST(NarrowedInputs, KernelsNamingARoundingIntrinsic) {
  hw::Description chip = narrowingChip();
  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::func::FuncDialect, StrataDialect>();
  ctx.allowUnregisteredDialects();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(R"mlir(
    func.func @tf32() {
      "test.kernel"() {strata.schedule = #strata.schedule<{intrinsic = "mm16x8x8_tf32"}>} : () -> ()
      return
    }
    func.func @f16() {
      "test.kernel"() {strata.schedule = #strata.schedule<{intrinsic = "mm16x8x16"}>} : () -> ()
      return
    }
    func.func @fma() {
      "test.kernel"() {strata.schedule = #strata.schedule<{intrinsic = "fma"}>} : () -> ()
      return
    }
    func.func @both() {
      "test.kernel"() {strata.schedule = #strata.schedule<{intrinsic = "mm16x8x8_tf32"}>} : () -> ()
      "test.kernel"() {strata.schedule = #strata.schedule<{intrinsic = "mm_f32_7bits"}>} : () -> ()
      return
    }
  )mlir",
                                                        &ctx);
  ASSERT_TRUE(module);
  std::map<std::string, NarrowedInputs> n = narrowedInputs(*module, chip);
  ASSERT_TRUE(n.count("tf32"));
  EXPECT_EQ(n["tf32"].mantissaBits, 10);
  EXPECT_EQ(n["tf32"].type, "tf32");
  // f16 operands on an f16 intrinsic, and multiply-adds, keep every bit.
  EXPECT_FALSE(n.count("f16"));
  EXPECT_FALSE(n.count("fma"));
  // The fewest bits of the function's intrinsics decide.
  ASSERT_TRUE(n.count("both"));
  EXPECT_EQ(n["both"].mantissaBits, 7);
  EXPECT_EQ(n["both"].type, "f32");
}

TEST(NarrowedInputs, KeptMantissaBits) {
  hw::Description chip = narrowingChip();
  std::map<std::string, int64_t> bits;
  for (const hw::MatrixIntrinsic &mi : chip.matrix)
    bits[mi.name] = keptMantissaBits(mi);
  EXPECT_EQ(bits["mm16x8x16"], 0);
  EXPECT_EQ(bits["mm16x8x8_tf32"], 10);
  EXPECT_EQ(bits["mm_f32_7bits"], 7);
}

} // namespace
