//===- SharedAlignment.h - Dynamic shared memory for wgmma ------*- C++ -*-===//
#ifndef STRATA_NVIDIA_SHAREDALIGNMENT_H
#define STRATA_NVIDIA_SHAREDALIGNMENT_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// nvidia-align-dynamic-shared: 1024-byte aligned dynamic shared memory in
/// gpu.modules with wgmma (SharedAlignment.cpp).
std::unique_ptr<mlir::Pass> createAlignDynamicSharedPass();
void registerAlignDynamicSharedPass();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_SHAREDALIGNMENT_H
