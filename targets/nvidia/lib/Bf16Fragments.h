//===- Bf16Fragments.h - bf16 operands of mma.sync --------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_BF16FRAGMENTS_H
#define STRATA_NVIDIA_BF16FRAGMENTS_H

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace strata::nvidia {

/// Makes the bf16 operands of `contract` f16 reads of the same shared memory
/// (sibling memref.views of the same bytes), so that upstream's f16 fragment
/// conversion applies. `aliases` maps each retyped read to its replacement
/// (a read feeds several contractions). Fails, with an error, on operands
/// that are not reads of a memref.view.
mlir::LogicalResult
aliasBf16AsF16(mlir::RewriterBase &rw, mlir::vector::ContractionOp contract,
               llvm::DenseMap<mlir::Value, mlir::Value> &aliases);

/// Replaces every nvgpu.mma.sync m16n8k16 (f16 fragments, f32 accumulators)
/// under `scope`, except those in `keep`, with the bf16 nvvm.mma.sync on the
/// same registers.
mlir::LogicalResult
lowerMmaSyncAsBf16(mlir::RewriterBase &rw, mlir::Operation *scope,
                   const llvm::DenseSet<mlir::Operation *> &keep);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_BF16FRAGMENTS_H
