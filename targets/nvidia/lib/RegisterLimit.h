//===- RegisterLimit.h - Kernels' register ceiling --------------*- C++ -*-===//
#ifndef STRATA_NVIDIA_REGISTERLIMIT_H
#define STRATA_NVIDIA_REGISTERLIMIT_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// nvidia-register-limit: every kernel of the lowered gpu.modules may use
/// `registers` registers per thread (`.maxnreg`, RegisterLimit.cpp).
std::unique_ptr<mlir::Pass> createRegisterLimitPass(int64_t registers);
void registerRegisterLimitPass();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_REGISTERLIMIT_H
