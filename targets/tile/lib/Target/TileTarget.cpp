//===- TileTarget.cpp - The tile-grid plugin ------------------------------===//
//
// Lowers the mapped IR to tile programs (reader, compute and writer kernels
// over circular buffers in each core's L1), writes them as tile-dialect
// text, and runs them on the in-process emulator, whose cycle model gives
// the predicted time.
//
//===----------------------------------------------------------------------===//
#include "LowerToTile.h"

#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Pipeline/Compiler.h"
#include "strata/Target/TargetRegistry.h"
#include "strata/Tile/Runtime/TileDevice.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace strata;

namespace {
class TileTarget final : public TargetPlugin {
public:
  llvm::StringRef getName() const override { return "tile"; }
  llvm::StringRef getSummary() const override {
    return "tile-grid chips: tile programs run on the emulator, timed by the "
           "cycle model";
  }

  void registerDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<tile::TileDialect>();
  }

  // A description without `target_options` can still be inspected (and
  // attached to IR); compiling for it fails in S5 with the same message.
  void validateDescription(const hw::Description &chip,
                           std::vector<hw::Diagnostic> &errors) const override {
    if (chip.targetOptions.is_null())
      return;
    llvm::Expected<tile::TileChip> tileChip =
        tile::TileChip::fromDescription(chip);
    if (!tileChip)
      errors.push_back(
          {"/target_options", llvm::toString(tileChip.takeError()), 0, 0});
  }

  // The core leaves each op whole with its scratchpad schedule; the
  // plugin writes the kernels that move its blocks (strata-tile-lower).
  // No canonicalization after it: kernels are not isolated from above, so
  // it would hoist their constants into the program's declarations.
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const hw::Description &) const override {
    // Calls of the program's own functions are inlined first: a tile
    // program is made of one function's ops on DRAM buffers.
    pm.addPass(mlir::createInlinerPass());
    // The kernels' fidelity: the intrinsics' default_fidelity.
    pm.addPass(tile::createLowerToTilePass(""));
  }

  std::vector<std::string> loweredDialects() const override {
    return {"tile", "arith", "scf"};
  }

  // The artifact is the verified tile-dialect text the device parses.
  llvm::Error writeArtifact(mlir::ModuleOp lowered, const hw::Description &,
                            EmitKind kind,
                            llvm::StringRef path) const override {
    if (kind != EmitKind::Library && kind != EmitKind::Lowered)
      return llvm::createStringError(
          "the tile target writes tile programs (--emit=lowered or lib), not " +
          emitKindName(kind).str());
    return writeModule(lowered, path);
  }

  llvm::Expected<std::unique_ptr<runtime::Device>>
  createDevice(const hw::Description &chip) const override {
    return tile::createTileDevice(chip);
  }
};
} // namespace

STRATA_DEFINE_TARGET(tile, TileTarget)
