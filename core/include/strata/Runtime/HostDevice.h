//===- HostDevice.h - Run shared libraries in this process ------*- C++ -*-===//
//
// The device for artifacts that are host shared libraries with MLIR's C
// interface: buffers are host memory, an executable is a dlopen'ed library,
// a launch builds memref descriptors and calls _mlir_ciface_<name>.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_HOSTDEVICE_H
#define STRATA_RUNTIME_HOSTDEVICE_H

#include "strata/Runtime/Device.h"

namespace strata::runtime {

/// Most pointer arguments a launch can pass (inputs plus outputs).
constexpr size_t kMaxHostArguments = 32;

std::unique_ptr<Device> createHostDevice(std::string name);

} // namespace strata::runtime

#endif // STRATA_RUNTIME_HOSTDEVICE_H
