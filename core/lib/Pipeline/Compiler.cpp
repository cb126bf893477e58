//===- Compiler.cpp - Drive a module through the stages -------------------===//
#include "strata/Pipeline/Compiler.h"
#include "strata/Codegen/HostLowering.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <spdlog/spdlog.h>

#include <chrono>

using namespace mlir;

void strata::registerStrataDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<StrataDialect>();
  TargetRegistry::get().registerDialects(registry);
}

OwningOpRef<ModuleOp> strata::parseInputFile(llvm::StringRef path,
                                             MLIRContext &ctx,
                                             llvm::SourceMgr &sourceMgr,
                                             std::string &openError) {
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &openError);
  if (!file)
    return nullptr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &ctx);
}

/// Runs `pm` on `module` after applying the tool's hook.
static LogicalResult runPasses(PassManager &pm, ModuleOp module,
                               const strata::PassManagerHook &hook,
                               llvm::StringRef stage) {
  if (hook && failed(hook(pm)))
    return failure();
  spdlog::info("running {}", stage.str());
  auto start = std::chrono::steady_clock::now();
  LogicalResult result = pm.run(module);
  spdlog::info("{} {} in {:.1f} ms", stage.str(),
               succeeded(result) ? "finished" : "failed",
               std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - start)
                   .count());
  return result;
}

void strata::attachDescription(ModuleOp module, const hw::Description &chip) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<StrataDialect>();
  auto dict = cast<DictionaryAttr>(jsonToAttribute(ctx, chip.document));
  module->setAttr(StrataDialect::kHardwareAttrName,
                  HardwareAttr::get(ctx, chip.name, dict));
}

LogicalResult strata::runCoreStages(ModuleOp module,
                                    const hw::Description &chip,
                                    const PassManagerHook &hook,
                                    const CoreOptions &options) {
  attachDescription(module, chip);
  PassManager pm(module.getContext());
  buildCorePipeline(pm, chip, options);
  return runPasses(pm, module, hook, "core stages S1-S4");
}

/// Runs a lowering pipeline, verifying the module once at its end rather
/// than after each pass (unless the hook asks for that: --verify-each).
/// A lowering rewrites the whole module in each of its dozens of passes;
/// verifying it after each took more than half of S5's time on a network
/// (EfficientNet-B0: 6 of 10.5 s).
static LogicalResult runLowering(PassManager &pm, ModuleOp module,
                                 const strata::PassManagerHook &hook,
                                 llvm::StringRef stage) {
  pm.enableVerifier(false);
  if (failed(runPasses(pm, module, hook, stage)))
    return failure();
  if (failed(verify(module))) {
    module.emitError() << "the IR after " << stage << " does not verify";
    return failure();
  }
  return success();
}

LogicalResult strata::runPluginLowering(ModuleOp module,
                                        const TargetPlugin &plugin,
                                        const hw::Description &chip,
                                        const PassManagerHook &hook) {
  PassManager pm(module.getContext());
  plugin.buildLoweringPipeline(pm, chip);
  std::string stage =
      llvm::formatv("the '{0}' target (S5)", plugin.getName()).str();
  if (failed(runLowering(pm, module, hook, stage)))
    return failure();
  return checkFullyLowered(module, plugin.loweredDialects(), stage);
}

LogicalResult strata::runReferenceLowering(ModuleOp module,
                                           const PassManagerHook &hook) {
  PassManager pm(module.getContext());
  buildReferencePipeline(pm);
  if (failed(runLowering(pm, module, hook, "the reference lowering")))
    return failure();
  return checkFullyLowered(module, {"llvm"}, "the reference lowering");
}

LogicalResult
strata::runPrecisionReferenceLowering(ModuleOp module, int64_t mantissaBits,
                                      const PassManagerHook &hook) {
  PassManager pm(module.getContext());
  buildPrecisionReferencePipeline(pm, mantissaBits);
  if (failed(runLowering(pm, module, hook,
                         "the lowering of the precision reference")))
    return failure();
  return checkFullyLowered(module, {"llvm"},
                           "the lowering of the precision reference");
}

llvm::Error strata::writeModule(ModuleOp module, llvm::StringRef path) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> out = openOutputFile(path, &error);
  if (!out)
    return llvm::createStringError(error);
  module.print(out->os());
  out->os() << "\n";
  out->keep();
  return llvm::Error::success();
}
