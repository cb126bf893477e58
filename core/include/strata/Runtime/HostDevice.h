//===- HostDevice.h - Run shared libraries in this process ------*- C++ -*-===//
//
// The device for artifacts that are host shared libraries with MLIR's C
// interface: the runtime library's host device (runtime/lib/HostDevice.cpp)
// behind the compiler's Device interface.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_HOSTDEVICE_H
#define STRATA_RUNTIME_HOSTDEVICE_H

#include "strata/Runtime/Device.h"

namespace strata::runtime {

std::unique_ptr<Device> createHostDevice(std::string name);

} // namespace strata::runtime

#endif // STRATA_RUNTIME_HOSTDEVICE_H
