//===- strata-opt.cpp - mlir-opt with Strata's dialects and passes --------===//
//
// Reads stdin without an input or with "-". Exit status 0, or 1 on any error
// (docs/tools.md).
//
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetRegistry.h"
#include "strata/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Path.h"

int main(int argc, char **argv) {
  // Every option registered before main is a linked library's (LLVM's
  // backends and codegen): hidden from --help. Those MlirOptMain registers
  // next (the passes and pipelines, mlir-opt's and MLIR's options) are what
  // strata-opt is for, and stay listed.
  strata::tool::hideOptionsExcept(
      [](const llvm::cl::Option &) { return false; });
  strata::TargetRegistry &targets = strata::TargetRegistry::get();
  strata::registerStaticTargets(targets);
  strata::tool::setVersionPrinter(
      llvm::sys::path::filename(argv[0]), [&targets](llvm::raw_ostream &os) {
        strata::tool::printTargetList(os, "Built-in targets",
                                      targets.pluginNames());
      });
  strata::registerUpstreamPasses();
  strata::registerPipelines();
  mlir::DialectRegistry registry;
  strata::registerStrataDialects(registry);
  // The tile dialect is not a plugin's: hand-written tile programs are
  // parsed and verified without the tile plugin.
  registry.insert<strata::tile::TileDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Strata optimizer driver\n", registry));
}
