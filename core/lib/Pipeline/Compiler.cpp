//===- Compiler.cpp - Drive a module through the stages -------------------===//
#include "strata/Pipeline/Compiler.h"
#include "strata/Codegen/HostLowering.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <spdlog/spdlog.h>

using namespace mlir;

void strata::registerStrataDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<StrataDialect>();
  TargetRegistry::get().registerDialects(registry);
}

OwningOpRef<ModuleOp> strata::parseInputFile(llvm::StringRef path,
                                             MLIRContext &ctx,
                                             llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    emitError(UnknownLoc::get(&ctx))
        << "cannot open input file '" << path << "': " << error;
    return nullptr;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &ctx);
}

/// Runs `pm` on `module` after applying the tool's hook.
static LogicalResult runPasses(PassManager &pm, ModuleOp module,
                               const strata::PassManagerHook &hook,
                               llvm::StringRef stage) {
  if (hook && failed(hook(pm)))
    return failure();
  spdlog::debug("running {}", stage.str());
  return pm.run(module);
}

/// After bufferization every public function passes its results as trailing
/// output arguments (the library ABI); anything else is a pipeline bug that
/// would make callers read garbage, so it is reported, not compiled.
static LogicalResult checkDestinationPassing(ModuleOp module) {
  bool ok = true;
  for (auto func : module.getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal() && func.getNumResults() != 0) {
      func.emitError() << "still returns " << func.getNumResults()
                       << " value(s) after bufferization; expected results "
                          "as output arguments";
      ok = false;
    }
  return success(ok);
}

LogicalResult strata::runCoreStages(ModuleOp module,
                                    const hw::Description &chip,
                                    const PassManagerHook &hook) {
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<StrataDialect>();
  auto dict = cast<DictionaryAttr>(jsonToAttribute(ctx, chip.document));
  module->setAttr(StrataDialect::kHardwareAttrName,
                  HardwareAttr::get(ctx, chip.name, dict));
  PassManager pm(ctx);
  buildCorePipeline(pm, chip);
  if (failed(runPasses(pm, module, hook, "core stages S1-S4")))
    return failure();
  return checkDestinationPassing(module);
}

LogicalResult strata::runPluginLowering(ModuleOp module,
                                        const TargetPlugin &plugin,
                                        const hw::Description &chip,
                                        const PassManagerHook &hook) {
  PassManager pm(module.getContext());
  plugin.buildLoweringPipeline(pm, chip);
  std::string stage =
      llvm::formatv("the '{0}' target (S5)", plugin.getName()).str();
  if (failed(runPasses(pm, module, hook, stage)))
    return failure();
  return checkFullyLowered(module, plugin.loweredDialects(), stage);
}

LogicalResult strata::runReferenceLowering(ModuleOp module,
                                           const PassManagerHook &hook) {
  PassManager pm(module.getContext());
  buildPreparePipeline(pm);
  buildBufferizePipeline(pm);
  if (failed(runPasses(pm, module, hook, "reference bufferization")) ||
      failed(checkDestinationPassing(module)))
    return failure();
  pm.clear();
  buildLoopsToLLVMPipeline(pm);
  if (failed(runPasses(pm, module, hook, "reference lowering")))
    return failure();
  return checkFullyLowered(module, {"llvm"}, "the reference lowering");
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
