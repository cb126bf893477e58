//===- Device.cpp - Defaults of the runtime API ---------------------------===//
#include "strata/Runtime/Device.h"

#include <chrono>

using namespace strata::runtime;

Buffer::~Buffer() = default;
Executable::~Executable() = default;
Timer::~Timer() = default;
Device::~Device() = default;

namespace {
/// Wall-clock timer for devices whose launches are synchronous.
class WallTimer final : public Timer {
public:
  void start() override { begin = std::chrono::steady_clock::now(); }
  double stop() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         begin)
        .count();
  }

private:
  std::chrono::steady_clock::time_point begin;
};
} // namespace

std::unique_ptr<Timer> Device::createTimer() {
  return std::make_unique<WallTimer>();
}
