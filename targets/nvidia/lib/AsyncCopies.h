//===- AsyncCopies.h - Asynchronous copies to cp.async ----------*- C++ -*-===//
#ifndef STRATA_NVIDIA_ASYNCCOPIES_H
#define STRATA_NVIDIA_ASYNCCOPIES_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace strata::nvidia {

/// In a lane loop marked `strata.async_copy` (its scratchpad buffers already
/// in shared memory): each 4, 8 or 16-byte vector load stored into shared
/// memory becomes nvgpu.device_async_copy (cp.async), and the lane commits
/// its copies as one group at the end of the body. Fails, with an error, on
/// a copy cp.async cannot do.
mlir::LogicalResult lowerAsyncCopies(mlir::scf::ForallOp laneLoop);

/// Each gpu.barrier under `root` marked `strata.pending_copy_groups = N` is
/// preceded by a wait until at most N of the lane's copy groups are pending.
void lowerCopyWaits(mlir::Operation *root);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_ASYNCCOPIES_H
