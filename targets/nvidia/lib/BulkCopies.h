//===- BulkCopies.h - Bulk copies to TMA and mbarriers ----------*- C++ -*-===//
#ifndef STRATA_NVIDIA_BULKCOPIES_H
#define STRATA_NVIDIA_BULKCOPIES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace strata::nvidia {

/// In `launch` (its block and thread loops already inlined): the core's
/// bulk copies of whole tiles (Attributes.h: kBulkCopyStageAttrName) become
/// TMA loads (nvgpu.tma.async.load, cp.async.bulk.tensor) of 128-byte-
/// swizzled boxes issued by thread 0, completing on one mbarrier per stage;
/// a barrier awaiting a stage first waits on that mbarrier's phase. The
/// tensor maps are created before the launch, on the host (the bundle
/// records how). Fails, with an error, on a copy TMA cannot do.
mlir::LogicalResult lowerBulkCopies(mlir::gpu::LaunchOp launch);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_BULKCOPIES_H
