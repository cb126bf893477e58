//===- BundleTest.cpp - The nvidia plugin's artifact ----------------------===//
#include "Bundle.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::nvidia;

namespace {

Bundle sample() {
  Bundle b;
  b.chip = "nvidia-a100";
  b.arch = "sm_80";
  b.ptx = ".version 8.0\n.target sm_80\n";
  b.cubin = std::string("\x7f"
                        "ELF\0\1\2",
                        7);
  b.ptxasLog = "ptxas info : Used 32 registers";
  FunctionPlan f;
  f.name = "mlp";
  f.arguments = 3;
  f.temporaries = {4096};
  LaunchStep s;
  s.kernel = "mlp_kernel";
  s.grid = {4, 2, 1};
  s.block = {128, 1, 1};
  s.sharedBytes = 65536;
  s.args = {{false, 0, std::nullopt},
            {false, 1, std::nullopt},
            {true, 0, std::nullopt},
            {false, 2, std::nullopt}};
  f.steps.push_back(s);
  b.functions.push_back(f);
  return b;
}

TEST(Bundle, RoundTrips) {
  Bundle b = sample();
  auto back = Bundle::fromJson(b.toJson());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->chip, b.chip);
  EXPECT_EQ(back->arch, b.arch);
  EXPECT_EQ(back->ptx, b.ptx);
  EXPECT_EQ(back->cubin, b.cubin); // binary, through base64
  ASSERT_NE(back->find("mlp"), nullptr);
  EXPECT_EQ(back->find("other"), nullptr);
  const LaunchStep &s = back->find("mlp")->steps.at(0);
  EXPECT_EQ(s.kernel, "mlp_kernel");
  EXPECT_EQ(s.grid, (std::array<int64_t, 3>{4, 2, 1}));
  EXPECT_EQ(s.block, (std::array<int64_t, 3>{128, 1, 1}));
  EXPECT_EQ(s.sharedBytes, 65536);
  ASSERT_EQ(s.args.size(), 4u);
  EXPECT_TRUE(s.args[2].temporary);
  EXPECT_EQ(s.args[3].index, 2);
  EXPECT_EQ(back->find("mlp")->temporaries, std::vector<int64_t>{4096});
}

TEST(Bundle, TensorMapArgumentsRoundTrip) {
  Bundle b = sample();
  TensorMapInfo map;
  map.elementType = "bf16";
  map.dims = {4096, 2048};
  map.strides = {4096, 2};
  map.box = {256, 64};
  map.swizzleBytes = 128;
  map.l2PromotionBytes = 256;
  b.functions[0].steps[0].args[1].tensorMap = map;
  nlohmann::json doc = b.toJson();
  const nlohmann::json &arg = doc["functions"][0]["steps"][0]["args"][1];
  ASSERT_TRUE(arg.contains("tensor_map"));
  EXPECT_EQ(arg["tensor_map"]["buffer"], 1);
  EXPECT_EQ(arg["tensor_map"]["box"], nlohmann::json({256, 64}));
  auto back = Bundle::fromJson(doc);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const KernelArg &a = back->find("mlp")->steps.at(0).args.at(1);
  ASSERT_TRUE(a.tensorMap.has_value());
  EXPECT_FALSE(a.temporary);
  EXPECT_EQ(a.index, 1);
  EXPECT_EQ(a.tensorMap->elementType, "bf16");
  EXPECT_EQ(a.tensorMap->dims, map.dims);
  EXPECT_EQ(a.tensorMap->strides, map.strides);
  EXPECT_EQ(a.tensorMap->box, map.box);
  EXPECT_EQ(a.tensorMap->swizzleBytes, 128);
  EXPECT_EQ(a.tensorMap->l2PromotionBytes, 256);
  EXPECT_FALSE(back->find("mlp")->steps.at(0).args.at(0).tensorMap);
  // Ranks must agree.
  doc["functions"][0]["steps"][0]["args"][1]["tensor_map"]["box"] = {64};
  back = Bundle::fromJson(doc);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("one rank"), std::string::npos);
}

TEST(Bundle, RejectsOtherFormats) {
  nlohmann::json doc = sample().toJson();
  doc["format"] = "something-else";
  auto back = Bundle::fromJson(doc);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("not a strata nvidia"),
            std::string::npos);
}

TEST(Bundle, RejectsArgumentsOutOfRange) {
  nlohmann::json doc = sample().toJson();
  doc["functions"][0]["steps"][0]["args"][0] = {{"buffer", 3}};
  auto back = Bundle::fromJson(doc);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("out of range"), std::string::npos);
  doc = sample().toJson();
  doc["functions"][0]["steps"][0]["args"][2] = {{"temporary", 1}};
  back = Bundle::fromJson(doc);
  ASSERT_FALSE(back.ok());
}

TEST(Bundle, MissingFieldsAreErrors) {
  nlohmann::json doc = sample().toJson();
  doc["functions"][0].erase("steps");
  auto back = Bundle::fromJson(doc);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("malformed"), std::string::npos);
}

} // namespace
