//===- CudaRuntime.h - NVIDIA bundles on the CUDA driver --------*- C++ -*-===//
#ifndef STRATA_NVIDIA_CUDARUNTIME_H
#define STRATA_NVIDIA_CUDARUNTIME_H

#include "strata/rt/Device.h"

#include <memory>
#include <string>

namespace strata::nvidia {

/// The CUDA device numbered `ordinal`, through the driver API loaded with
/// dlopen from `driverLibrary` (default: $STRATA_CUDA_DRIVER, else
/// libcuda.so.1). Without a loadable driver or a GPU: Status::noDevice.
rt::Result<std::unique_ptr<rt::Device>>
createCudaRuntimeDevice(int ordinal, std::string driverLibrary = "");

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_CUDARUNTIME_H
