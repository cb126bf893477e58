//===- WarpgroupMma.h - wgmma contractions to nvgpu -------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_WARPGROUPMMA_H
#define STRATA_NVIDIA_WARPGROUPMMA_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace strata::nvidia {

/// The k loop `loop` of wgmma contractions (their tiles swizzled by
/// SwizzledTiles.h, in shared memory) becomes a loop of
/// nvgpu.warpgroup.mma on matrix descriptors, one per k tile, with
/// accumulators in registers; the writes of its results to the staging tile
/// become nvgpu.warpgroup.mma.store. Fails, with an error, on a form it
/// does not lower.
mlir::LogicalResult lowerWarpgroupLoop(mlir::RewriterBase &rw,
                                       mlir::scf::ForOp loop);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_WARPGROUPMMA_H
