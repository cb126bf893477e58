//===- TargetRegistryTest.cpp - Plugins and --target resolution -----------===//
#include "strata/Target/TargetRegistry.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace strata;

namespace {

TargetRegistry &registry() {
  static bool registered = [] {
    registerStaticTargets(TargetRegistry::get());
    return true;
  }();
  (void)registered;
  return TargetRegistry::get();
}

TEST(TargetRegistry, CpuPluginIsBuiltIn) {
  ASSERT_NE(registry().lookup("cpu"), nullptr);
  EXPECT_EQ(registry().lookup("no-such-plugin"), nullptr);
}

TEST(TargetRegistry, DuplicatePluginIsAnError) {
  class Fake final : public TargetPlugin {
    llvm::StringRef getName() const override { return "cpu"; }
    llvm::StringRef getSummary() const override { return ""; }
    void buildLoweringPipeline(mlir::OpPassManager &,
                               const hw::Description &) const override {}
    std::vector<std::string> loweredDialects() const override { return {}; }
    llvm::Error writeArtifact(mlir::ModuleOp, const hw::Description &, EmitKind,
                              llvm::StringRef) const override {
      return llvm::Error::success();
    }
    llvm::Expected<std::unique_ptr<runtime::Device>>
    createDevice(const hw::Description &) const override {
      return nullptr;
    }
  };
  llvm::Error err = registry().add(std::make_unique<Fake>());
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("registered twice"),
            std::string::npos);
}

TEST(TargetRegistry, UnknownTargetListsChoices) {
  hw::LoadResult result = registry().resolve("nvidia-h9000");
  ASSERT_FALSE(result);
  std::string text = result.formatErrors();
  EXPECT_NE(text.find("unknown target 'nvidia-h9000'"), std::string::npos);
  EXPECT_NE(text.find("host-x86-avx512"), std::string::npos);
}

TEST(TargetRegistry, HostIsDescribed) {
  hw::LoadResult result = registry().resolve("host");
  ASSERT_TRUE(result) << result.formatErrors();
  EXPECT_EQ(result.description->plugin, "cpu");
  ASSERT_TRUE(result.description->vector.has_value());
  EXPECT_GE(result.description->vector->widthBits, 128);
  EXPECT_GE(result.description->totalUnits("core"), 1);
}

TEST(TargetRegistry, ShippedDescriptionsResolve) {
  for (const std::string &name : hw::shippedDescriptionNames()) {
    hw::LoadResult result = registry().resolve(name, /*requirePlugin=*/false);
    ASSERT_TRUE(result) << result.formatErrors();
    EXPECT_EQ(result.description->name, name);
  }
  EXPECT_TRUE(registry().resolve("host-x86-avx512"));
}

TEST(TargetRegistry, UnbuiltPluginIsAnErrorWhenRequired) {
  // A shipped chip handed to a plugin that is not built in.
  std::optional<std::string> text =
      hw::shippedDescriptionText("host-x86-avx512");
  ASSERT_TRUE(text.has_value());
  nlohmann::json doc = nlohmann::json::parse(*text);
  doc["plugin"] = "vendor-npu";
  ASSERT_EQ(registry().lookup("vendor-npu"), nullptr);
  hw::LoadResult loose =
      registry().validateText(doc.dump(), "vendor.json", false);
  ASSERT_TRUE(loose) << loose.formatErrors();
  hw::LoadResult strict = registry().validateText(doc.dump(), "vendor.json");
  ASSERT_FALSE(strict);
  EXPECT_NE(strict.formatErrors().find("/plugin"), std::string::npos);
  EXPECT_NE(strict.formatErrors().find("vendor-npu"), std::string::npos);
}

TEST(TargetRegistry, MissingFileIsAnError) {
  hw::LoadResult result = registry().resolve("/no/such/chip.json");
  ASSERT_FALSE(result);
  EXPECT_NE(result.formatErrors().find("/no/such/chip.json"),
            std::string::npos);
}

TEST(TargetRegistry, EmitKinds) {
  EXPECT_EQ(parseEmitKind("lib"), EmitKind::Library);
  EXPECT_EQ(parseEmitKind("mlir"), EmitKind::Mapped);
  EXPECT_FALSE(parseEmitKind("exe").has_value());
  EXPECT_EQ(emitKindName(EmitKind::Object), "obj");
}

} // namespace
