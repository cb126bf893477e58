//===- Device.cpp - Defaults of the runtime API ---------------------------===//
#include "strata/Runtime/Device.h"
#include "strata/Runtime/RuntimeDevice.h"

using namespace strata;
using namespace strata::runtime;

Buffer::~Buffer() = default;
Executable::~Executable() = default;
Timer::~Timer() = default;
Device::~Device() = default;

/// Devices whose launches are synchronous time with the runtime library's
/// wall clock.
std::unique_ptr<Timer> Device::createTimer() {
  return wrapRuntimeTimer(rt::createWallTimer());
}
