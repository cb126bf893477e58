//===- strata-opt.cpp - mlir-opt with Strata's dialects and passes --------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetRegistry.h"
#include "strata/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  strata::TargetRegistry &targets = strata::TargetRegistry::get();
  strata::registerStaticTargets(targets);
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
