//===- SwizzledTiles.h - Scratchpad tiles for wgmma -------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_SWIZZLEDTILES_H
#define STRATA_NVIDIA_SWIZZLEDTILES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// Whether `intrinsic` (a description name) is a warpgroup-level wgmma,
/// whose operands the tensor core reads from shared memory itself.
bool isWarpgroupIntrinsic(llvm::StringRef intrinsic);

/// nvidia-swizzle-tiles: the scratchpad tiles read by wgmma contractions
/// are laid out as the 128-byte swizzle of TMA and the wgmma descriptors
/// (SwizzledTiles.cpp); the stores into them become stores into a flat view.
std::unique_ptr<mlir::Pass> createSwizzleTilesPass();
void registerSwizzleTilesPass();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_SWIZZLEDTILES_H
