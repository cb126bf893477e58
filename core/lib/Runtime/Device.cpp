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

namespace {
class ModeledTimer final : public Timer {
public:
  explicit ModeledTimer(const double &total) : total(total) {}
  void start() override { begin = total; }
  double stop() override { return total - begin; }

private:
  const double &total;
  double begin = 0;
};
} // namespace

std::unique_ptr<Timer>
strata::runtime::createModeledTimer(const double &total) {
  return std::make_unique<ModeledTimer>(total);
}
