//===- ToyTarget.cpp - A vendor's plugin, as small as a plugin gets -------===//
//
// The "toy" chip is a host CPU in disguise: its plugin reuses the core's host
// lowering and host device. It exists to prove that a project outside Strata
// can add a target both through add_subdirectory and find_package.
//
//===----------------------------------------------------------------------===//
#include "strata/Codegen/HostLowering.h"
#include "strata/Runtime/HostDevice.h"
#include "strata/Target/TargetRegistry.h"

namespace {
class ToyTarget final : public strata::TargetPlugin {
public:
  llvm::StringRef getName() const override { return "toy"; }
  llvm::StringRef getSummary() const override {
    return "a vendor's toy chip (host code underneath)";
  }
  void validateDescription(
      const strata::hw::Description &chip,
      std::vector<strata::hw::Diagnostic> &errors) const override {
    if (!chip.targetOptions.contains("toy_mode"))
      errors.push_back({"/target_options/toy_mode",
                        "expected the toy chip's mode string", 0, 0});
  }
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const strata::hw::Description &) const override {
    strata::buildLoopsToLLVMPipeline(pm);
  }
  std::vector<std::string> loweredDialects() const override { return {"llvm"}; }
  llvm::Error writeArtifact(mlir::ModuleOp module,
                            const strata::hw::Description &,
                            strata::EmitKind kind,
                            llvm::StringRef path) const override {
    return strata::writeHostArtifact(module, kind, path, {});
  }
  llvm::Expected<std::unique_ptr<strata::runtime::Device>>
  createDevice(const strata::hw::Description &chip) const override {
    return strata::runtime::createHostDevice(chip.name);
  }
};
} // namespace

STRATA_DEFINE_TARGET(toy, ToyTarget)
