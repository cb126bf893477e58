//===- Device.h - Devices that run artifacts --------------------*- C++ -*-===//
//
// Device, Buffer, Executable and Timer: what is needed to load an artifact,
// move data, launch an exported function and time it, with no compiler in
// the process. One implementation per kind of artifact (a host library, an
// NVIDIA bundle, ...), registered under the artifact kind it recognizes.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_RT_DEVICE_H
#define STRATA_RT_DEVICE_H

#include "strata/rt/Manifest.h"
#include "strata/rt/Status.h"
#include "strata/rt/Tensor.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata::rt {

/// Memory owned by a device.
class Buffer {
public:
  virtual ~Buffer();
  virtual size_t size() const = 0;
  /// The address kernels use (a host address on the host).
  virtual void *address() = 0;
  /// The host address of the contents when host-visible, else nullptr.
  virtual void *hostPointer() { return nullptr; }
};

/// A loaded artifact.
class Executable {
public:
  virtual ~Executable();
  /// What the artifact says about itself (empty for an artifact written
  /// without one, such as a reference library).
  const Manifest &manifest() const { return manifest_; }
  virtual bool hasFunction(const std::string &name) const = 0;

protected:
  Manifest manifest_;
};

/// Measures device time between start() and stop().
class Timer {
public:
  virtual ~Timer();
  virtual void start() = 0;
  /// Seconds since start(), after all work launched since completed.
  virtual double stop() = 0;
};

class Device {
public:
  virtual ~Device();
  virtual std::string name() const = 0;

  virtual Result<std::unique_ptr<Buffer>> allocate(size_t bytes) = 0;
  virtual Status copyToDevice(Buffer &dst, const void *src, size_t bytes) = 0;
  virtual Status copyToHost(void *dst, Buffer &src, size_t bytes) = 0;

  /// Loads an artifact of this device's kind from `path`.
  virtual Result<std::unique_ptr<Executable>> load(const std::string &path) = 0;

  /// Runs `signature.name` on `args`: one address per buffer, inputs then
  /// outputs in signature order, each dense and row-major. `stream` is the
  /// device's queue to launch on (nullptr: its default).
  virtual Status launch(Executable &executable, const Signature &signature,
                        const std::vector<void *> &args,
                        void *stream = nullptr) = 0;

  /// Waits for all launched work.
  virtual Status synchronize() { return Status::success(); }
  virtual std::unique_ptr<Timer> createTimer();
};

/// A wall-clock timer, for devices whose launches are synchronous.
std::unique_ptr<Timer> createWallTimer();

/// A kind of artifact and the device that runs it.
struct ArtifactKind {
  std::string name; ///< the manifest's device_kind: "host", "cuda", ...
  /// Whether a file starting with `head` (up to 4 KiB) is of this kind.
  std::function<bool(const std::string &head)> recognizes;
  /// Checks the whole file without a device (nullptr: nothing to check
  /// before loading), so that a broken artifact is an error even where its
  /// device is absent.
  std::function<Status(const std::string &path)> validate;
  /// The device of this kind numbered `ordinal`; Status::noDevice when the
  /// machine has none.
  std::function<Result<std::unique_ptr<Device>>(int ordinal)> createDevice;
};

/// Registers a kind (at static initialization of the library).
bool registerArtifactKind(ArtifactKind kind);
const std::vector<ArtifactKind> &artifactKinds();
/// The kind of the artifact at `path`, or an error naming the file.
Result<const ArtifactKind *> artifactKindOf(const std::string &path);

/// The host device: shared libraries loaded into this process.
std::unique_ptr<Device> createHostDevice(std::string name = "host");

/// Reads a whole file; errors name it.
Result<std::string> readFile(const std::string &path);

} // namespace strata::rt

#endif // STRATA_RT_DEVICE_H
