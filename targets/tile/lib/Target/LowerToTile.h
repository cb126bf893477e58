//===- LowerToTile.h - S5 of the tile target --------------------*- C++ -*-===//
#ifndef STRATA_TARGETS_TILE_LOWERTOTILE_H
#define STRATA_TARGETS_TILE_LOWERTOTILE_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::tile {

/// The pass `strata-tile-lower`: every function of the mapped IR becomes a
/// tile.program (LowerToTile.cpp). `fidelity` is the matrix engine's (empty:
/// the intrinsics' default_fidelity).
std::unique_ptr<mlir::Pass> createLowerToTilePass(llvm::StringRef fidelity);

} // namespace strata::tile

#endif // STRATA_TARGETS_TILE_LOWERTOTILE_H
