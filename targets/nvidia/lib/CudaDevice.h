//===- CudaDevice.h - The CUDA driver as a runtime::Device ------*- C++ -*-===//
#ifndef STRATA_NVIDIA_CUDADEVICE_H
#define STRATA_NVIDIA_CUDADEVICE_H

#include "strata/HW/Description.h"
#include "strata/Runtime/Device.h"

#include <memory>
#include <string>

namespace strata::nvidia {

/// A device on the first GPU, through the driver API loaded with dlopen
/// from `driverLibrary` (default libcuda.so.1, or $STRATA_CUDA_DRIVER).
/// Without a loadable driver or a GPU the error is runtime::NoDeviceError.
llvm::Expected<std::unique_ptr<runtime::Device>>
createCudaDevice(const hw::Description &chip, std::string driverLibrary = "");

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_CUDADEVICE_H
