//===- GridToGPU.h - Grid levels to gpu.launch ------------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_GRIDTOGPU_H
#define STRATA_NVIDIA_GRIDTOGPU_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// nvidia-grid-to-gpu: every scf.forall mapped to the block level becomes a
/// gpu.launch (its ids the block ids), the foralls of the levels inside it
/// become slices of the thread id, and its scratchpad buffers views of the
/// launch's dynamic shared memory (address space 3).
std::unique_ptr<mlir::Pass> createGridToGPUPass();

/// nvidia-matrix-ops: contractions tagged with a matrix intrinsic to
/// nvgpu.ldmatrix and nvgpu.mma.sync (MatrixOps.cpp).
std::unique_ptr<mlir::Pass> createMatrixOpsPass();
void registerMatrixOpsPass();

/// Registers the plugin's passes with the pass registry (strata-opt).
void registerNvidiaPasses();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_GRIDTOGPU_H
