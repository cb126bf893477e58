//===- NpuTarget.cpp - The walkthrough NPU's target plugin ----------------===//
//
// What Strata needs to know about the npu beyond its description: the
// description's own fields it relies on (checked here, with JSON paths),
// the S5 pass to the npu dialect, the artifact (the npu module as text) and
// the simulator as the runtime device.
//
//===----------------------------------------------------------------------===//
#include "Npu/NpuDialect.h"
#include "NpuSimulator.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Pass/Pass.h"

using namespace strata;

namespace npu {
#define GEN_PASS_DECL_NPULOWER
#include "Npu/NpuPasses.h.inc"
} // namespace npu

namespace {
class NpuTarget final : public TargetPlugin {
public:
  llvm::StringRef getName() const override { return "npu"; }
  llvm::StringRef getSummary() const override {
    return "the walkthrough NPU: DMA, systolic array, vector unit (simulated)";
  }
  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<npu::NpuDialect>();
  }

  // The array is the intrinsic's `layout.tile` (the core checks the
  // intrinsic against it); the npu's own needs are checked here.
  void validateDescription(const hw::Description &chip,
                           std::vector<hw::Diagnostic> &errors) const override {
    auto error = [&](std::string path, std::string message) {
      errors.push_back({std::move(path), std::move(message), 0, 0});
    };
    if (chip.matrix.empty())
      error("/matrix", "the npu needs its systolic array as an intrinsic");
    for (auto [i, mi] : llvm::enumerate(chip.matrix))
      if (mi.accumulator.empty())
        error("/matrix/" + std::to_string(i) + "/accumulator",
              "the npu's array writes an accumulator memory: name it");
    if (llvm::none_of(chip.memory, [](const hw::MemoryLevel &mem) {
          return mem.kind == "scratchpad" && mem.engine &&
                 mem.engine->kind == "dma";
        }))
      error("/memory", "the npu needs a scratchpad filled by a \"dma\" engine");
    const nlohmann::json &options = chip.targetOptions;
    if (options.contains("vector_cycles") &&
        !options["vector_cycles"].is_object())
      error("/target_options/vector_cycles",
            "expected an object: vector function -> cycles per lane group");
  }

  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const hw::Description &) const override {
    pm.addPass(npu::createNpuLower());
  }
  std::vector<std::string> loweredDialects() const override {
    return {"npu", "func", "memref", "builtin"};
  }
  llvm::Error writeArtifact(mlir::ModuleOp lowered, const hw::Description &,
                            EmitKind kind,
                            llvm::StringRef path) const override {
    if (kind != EmitKind::Library && kind != EmitKind::Lowered)
      return llvm::createStringError(
          "the npu target writes npu programs (--emit=lowered or lib), not " +
          emitKindName(kind).str());
    return writeModule(lowered, path);
  }
  llvm::Expected<std::unique_ptr<runtime::Device>>
  createDevice(const hw::Description &chip) const override {
    return npu::createSimDevice(chip);
  }
};
} // namespace

STRATA_DEFINE_TARGET(npu, NpuTarget)
