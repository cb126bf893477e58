//===- CudaDevice.cpp - The CUDA driver as a runtime::Device --------------===//
//
// The runtime library's CUDA device (runtime/CudaRuntime.cpp) behind the
// compiler's Device interface: strata-run launches bundles exactly as
// strata-exec and Python do.
//
//===----------------------------------------------------------------------===//
#include "CudaDevice.h"
#include "CudaRuntime.h"

#include "strata/Runtime/RuntimeDevice.h"

using namespace strata;

llvm::Expected<std::unique_ptr<runtime::Device>>
strata::nvidia::createCudaDevice(const hw::Description &chip,
                                 std::string driverLibrary) {
  auto device = createCudaRuntimeDevice(0, std::move(driverLibrary));
  if (!device.ok())
    return runtime::toError(device.status());
  return runtime::wrapRuntimeDevice(std::move(*device));
}
