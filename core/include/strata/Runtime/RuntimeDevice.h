//===- RuntimeDevice.h - A runtime-library device as a Device ---*- C++ -*-===//
//
// The devices of the LLVM-free runtime library (strata/rt/Device.h) seen
// through the compiler's Device interface (llvm::Error), so that strata-run
// and the plugins run artifacts exactly as strata-exec and Python do.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_RUNTIMEDEVICE_H
#define STRATA_RUNTIME_RUNTIMEDEVICE_H

#include "strata/Runtime/Device.h"
#include "strata/rt/Device.h"

namespace strata::runtime {

/// `status` as an llvm::Error (NoDeviceError for a missing device).
llvm::Error toError(const rt::Status &status);

std::unique_ptr<Device> wrapRuntimeDevice(std::unique_ptr<rt::Device> device);
std::unique_ptr<Timer> wrapRuntimeTimer(std::unique_ptr<rt::Timer> timer);

} // namespace strata::runtime

#endif // STRATA_RUNTIME_RUNTIMEDEVICE_H
