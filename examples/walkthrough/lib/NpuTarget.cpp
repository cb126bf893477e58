//===- NpuTarget.cpp - The walkthrough NPU's target plugin ----------------===//
//
// What Strata needs to know about the npu beyond its description: the
// description's own fields it relies on (checked here, with JSON paths),
// the S5 pass to the npu dialect, the artifact (the npu module as text) and
// the simulator as the runtime device.
//
//===----------------------------------------------------------------------===//
#include "Npu/NpuPasses.h"
#include "NpuSimulator.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/FormatVariadic.h"

using namespace strata;

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

  void validateDescription(const hw::Description &chip,
                           std::vector<hw::Diagnostic> &errors) const override {
    auto error = [&](std::string path, std::string message) {
      errors.push_back({std::move(path), std::move(message), 0, 0});
    };
    const nlohmann::json &options = chip.targetOptions;
    const nlohmann::json *array =
        options.is_object() && options.contains("array") ? &options["array"]
                                                         : nullptr;
    if (!array || !array->is_array() || array->size() != 2 ||
        !(*array)[0].is_number_integer() || !(*array)[1].is_number_integer() ||
        (*array)[0].get<int64_t>() <= 0 || (*array)[1].get<int64_t>() <= 0)
      return error("/target_options/array",
                   "expected the systolic array's [rows, cols], positive "
                   "integers");
    int64_t rows = (*array)[0].get<int64_t>(), cols = (*array)[1].get<int64_t>();
    // The array computes an m x n x k tile as (m/rows) x (n/cols) passes
    // of k: each intrinsic must be whole passes.
    for (auto [i, mi] : llvm::enumerate(chip.matrix)) {
      std::string path = llvm::formatv("/matrix/{0}", i);
      if (mi.m % rows || mi.n % cols || mi.k % rows)
        error(path, llvm::formatv("intrinsic '{0}' is {1}x{2}x{3}: the {4}x{5}"
                                  " array needs m and k multiples of {4} and n"
                                  " a multiple of {5}",
                                  mi.name, mi.m, mi.n, mi.k, rows, cols));
      if (mi.accumulator.empty())
        error(path + "/accumulator",
              "the npu's array writes an accumulator memory: name it");
    }
    if (chip.matrix.empty())
      error("/matrix", "the npu needs its systolic array as an intrinsic");
    if (llvm::none_of(chip.memory, [](const hw::MemoryLevel &mem) {
          return mem.kind == "scratchpad" && mem.engine &&
                 mem.engine->kind == "dma";
        }))
      error("/memory", "the npu needs a scratchpad filled by a \"dma\" engine");
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
