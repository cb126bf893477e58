//===- TensorMapParams.h - Tensor maps as kernel parameters -----*- C++ -*-===//
#ifndef STRATA_NVIDIA_TENSORMAPPARAMS_H
#define STRATA_NVIDIA_TENSORMAPPARAMS_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace strata::nvidia {

/// nvidia-tensor-map-params: kernels take their TMA tensor maps by value,
/// as 128-byte grid-constant parameters (TensorMapParams.cpp).
std::unique_ptr<mlir::Pass> createTensorMapParamsPass();
void registerTensorMapParamsPass();

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_TENSORMAPPARAMS_H
