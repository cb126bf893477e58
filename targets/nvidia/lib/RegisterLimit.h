//===- RegisterLimit.h - Kernels' register ceiling --------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_REGISTERLIMIT_H
#define STRATA_NVIDIA_REGISTERLIMIT_H

#include "LaunchLegality.h"

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// nvidia-register-limit: every kernel of the lowered gpu.modules may use
/// the most registers per thread (`.maxnreg`) with which its block fits
/// `limits`, at most `limits.registersPerThread` (RegisterLimit.cpp).
std::unique_ptr<mlir::Pass> createRegisterLimitPass(const BlockLimits &limits);
void registerRegisterLimitPass();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_REGISTERLIMIT_H
