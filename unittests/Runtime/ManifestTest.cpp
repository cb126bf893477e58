//===- ManifestTest.cpp - Artifact manifests ------------------------------===//
#include "strata/rt/Manifest.h"
#include "strata/rt/Check.h"

#include <gtest/gtest.h>

using namespace strata::rt;

namespace {

Manifest sample() {
  Manifest m;
  m.chip = "nvidia-h200";
  m.deviceKind = "cuda";
  FunctionInfo f;
  f.signature = {"mlp",
                 {{ElementType::BF16, {256, 1024}}, {ElementType::F32, {4}}},
                 {{ElementType::BF16, {256, 4}}}};
  f.flops = 2.1e6;
  f.bytes = 5.3e5;
  f.rooflineSeconds = 1e-6;
  f.tolerances = {2e-2};
  m.functions.push_back(f);
  return m;
}

TEST(Manifest, RoundTrips) {
  auto back = Manifest::fromJson(sample().toJson(), "x.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->chip, "nvidia-h200");
  EXPECT_EQ(back->deviceKind, "cuda");
  const FunctionInfo *f = back->find("mlp");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(back->find("other"), nullptr);
  EXPECT_EQ(f->signature.inputs, sample().functions[0].signature.inputs);
  EXPECT_EQ(f->signature.outputs, sample().functions[0].signature.outputs);
  EXPECT_DOUBLE_EQ(f->flops, 2.1e6);
  EXPECT_DOUBLE_EQ(f->rooflineSeconds, 1e-6);
  EXPECT_EQ(f->tolerances, std::vector<double>{2e-2});
}

TEST(Manifest, ErrorsNameTheJsonPath) {
  auto bad = Manifest::fromJson(
      R"({"functions": [{"name": "f", "inputs": [{"type": "f8", "shape": [2]}],
          "outputs": []}]})",
      "lib.so");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("lib.so: manifest "
                                        "functions[0].inputs[0].type"),
            std::string::npos)
      << bad.status().message();
  bad = Manifest::fromJson(
      R"({"functions": [{"name": "f", "inputs": [{"type": "f32", "shape": [-2]}],
          "outputs": []}]})",
      "lib.so");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("inputs[0].shape"), std::string::npos);
  EXPECT_FALSE(Manifest::fromJson("{", "x").ok());
  EXPECT_FALSE(Manifest::fromJson("[]", "x").ok());
  EXPECT_FALSE(Manifest::fromJson(R"({"functions": 3})", "x").ok());
}

TEST(Check, SameSeedSameInputs) {
  TensorSpec spec{ElementType::BF16, {64}};
  std::vector<char> a(spec.bytes()), b(spec.bytes()), c(spec.bytes());
  fillRandom(a.data(), spec, inputSeed(5, 1));
  fillRandom(b.data(), spec, inputSeed(5, 1));
  fillRandom(c.data(), spec, inputSeed(5, 2));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(Check, MaxAbsErrorAndPoison) {
  TensorSpec spec{ElementType::F32, {3}};
  float want[3] = {1, 2, 3}, got[3] = {1, 2.5f, 3};
  Comparison cmp = compare(got, want, spec, 1e-4);
  EXPECT_FALSE(cmp.passed);
  EXPECT_FLOAT_EQ(float(cmp.maxAbsError), 0.5f);
  poison(got, spec);
  cmp = compare(got, want, spec, 1.0);
  EXPECT_EQ(cmp.nonFinite, 3);
  EXPECT_FALSE(cmp.passed);
}

} // namespace
