//===- Device.h - The runtime API every plugin implements -------*- C++ -*-===//
//
// Device, Buffer, Executable and Timer: what a tool needs to load an artifact,
// move data, launch an exported function and time it, on any target.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RUNTIME_DEVICE_H
#define STRATA_RUNTIME_DEVICE_H

#include "strata/Runtime/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace strata::runtime {

/// Memory owned by a device.
class Buffer {
public:
  virtual ~Buffer();
  virtual size_t size() const = 0;
  /// The host address of the contents when the buffer is host-visible,
  /// nullptr otherwise.
  virtual void *hostPointer() { return nullptr; }
};

/// A loaded artifact.
class Executable {
public:
  virtual ~Executable();
  /// True when the artifact exports `entry`.
  virtual bool hasFunction(llvm::StringRef entry) const = 0;
};

/// Measures device time between start() and stop().
class Timer {
public:
  virtual ~Timer();
  virtual void start() = 0;
  /// Seconds since start(), after all work launched since completed.
  virtual double stop() = 0;
};

/// A timer over a device's running total of modeled seconds (a simulator's
/// or cycle model's time, added per launch): stop() gives what the launches
/// since start() added. `total` must outlive the timer.
std::unique_ptr<Timer> createModeledTimer(const double &total);

class Device {
public:
  virtual ~Device();
  virtual std::string getName() const = 0;

  virtual llvm::Expected<std::unique_ptr<Buffer>> allocate(size_t bytes) = 0;
  virtual llvm::Error copyToDevice(Buffer &dst, const void *src,
                                   size_t bytes) = 0;
  virtual llvm::Error copyToHost(void *dst, Buffer &src, size_t bytes) = 0;

  /// Loads an artifact written by the plugin's writeArtifact(Library).
  virtual llvm::Expected<std::unique_ptr<Executable>>
  load(llvm::StringRef artifactPath) = 0;

  /// Runs `signature.name` with `args`: one buffer per input, then one per
  /// output, in signature order.
  virtual llvm::Error launch(Executable &executable, const Signature &signature,
                             llvm::ArrayRef<Buffer *> args) = 0;

  /// Waits for all launched work.
  virtual llvm::Error synchronize() { return llvm::Error::success(); }

  virtual std::unique_ptr<Timer> createTimer();

  /// What the device can say about the last launch beyond its outputs (a
  /// simulated device's predicted cycles and utilization), as lines of
  /// text; empty when it has nothing to add.
  virtual std::string lastLaunchReport() const { return {}; }
};

} // namespace strata::runtime

#endif // STRATA_RUNTIME_DEVICE_H
