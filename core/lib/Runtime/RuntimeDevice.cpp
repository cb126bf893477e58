//===- RuntimeDevice.cpp - A runtime-library device as a Device -----------===//
#include "strata/Runtime/RuntimeDevice.h"
#include "strata/Runtime/HostDevice.h"
#include "strata/Runtime/NoDevice.h"

using namespace strata;
using namespace strata::runtime;

llvm::Error strata::runtime::toError(const rt::Status &status) {
  if (status.ok())
    return llvm::Error::success();
  if (status.isNoDevice())
    return llvm::make_error<NoDeviceError>(status.message());
  return llvm::createStringError(status.message());
}

namespace {
class WrappedBuffer final : public Buffer {
public:
  explicit WrappedBuffer(std::unique_ptr<rt::Buffer> inner)
      : inner(std::move(inner)) {}
  size_t size() const override { return inner->size(); }
  void *hostPointer() override { return inner->hostPointer(); }
  std::unique_ptr<rt::Buffer> inner;
};

class WrappedExecutable final : public Executable {
public:
  explicit WrappedExecutable(std::unique_ptr<rt::Executable> inner)
      : inner(std::move(inner)) {}
  bool hasFunction(llvm::StringRef entry) const override {
    return inner->hasFunction(entry.str());
  }
  std::unique_ptr<rt::Executable> inner;
};

class WrappedTimer final : public Timer {
public:
  explicit WrappedTimer(std::unique_ptr<rt::Timer> inner)
      : inner(std::move(inner)) {}
  void start() override { inner->start(); }
  double stop() override { return inner->stop(); }
  std::unique_ptr<rt::Timer> inner;
};

class WrappedDevice final : public Device {
public:
  explicit WrappedDevice(std::unique_ptr<rt::Device> inner)
      : inner(std::move(inner)) {}
  std::string getName() const override { return inner->name(); }

  llvm::Expected<std::unique_ptr<Buffer>> allocate(size_t bytes) override {
    auto buffer = inner->allocate(bytes);
    if (!buffer.ok())
      return toError(buffer.status());
    return std::make_unique<WrappedBuffer>(std::move(*buffer));
  }
  llvm::Error copyToDevice(Buffer &dst, const void *src,
                           size_t bytes) override {
    return toError(inner->copyToDevice(*static_cast<WrappedBuffer &>(dst).inner,
                                       src, bytes));
  }
  llvm::Error copyToHost(void *dst, Buffer &src, size_t bytes) override {
    return toError(inner->copyToHost(
        dst, *static_cast<WrappedBuffer &>(src).inner, bytes));
  }
  llvm::Expected<std::unique_ptr<Executable>>
  load(llvm::StringRef artifactPath) override {
    auto executable = inner->load(artifactPath.str());
    if (!executable.ok())
      return toError(executable.status());
    return std::make_unique<WrappedExecutable>(std::move(*executable));
  }
  llvm::Error launch(Executable &executable, const Signature &signature,
                     llvm::ArrayRef<Buffer *> args) override {
    std::vector<void *> addresses;
    for (Buffer *arg : args)
      addresses.push_back(static_cast<WrappedBuffer *>(arg)->inner->address());
    return toError(
        inner->launch(*static_cast<WrappedExecutable &>(executable).inner,
                      signature, addresses));
  }
  llvm::Error synchronize() override { return toError(inner->synchronize()); }
  std::unique_ptr<Timer> createTimer() override {
    return wrapRuntimeTimer(inner->createTimer());
  }

private:
  std::unique_ptr<rt::Device> inner;
};
} // namespace

std::unique_ptr<Device>
strata::runtime::wrapRuntimeDevice(std::unique_ptr<rt::Device> device) {
  return std::make_unique<WrappedDevice>(std::move(device));
}

std::unique_ptr<Timer>
strata::runtime::wrapRuntimeTimer(std::unique_ptr<rt::Timer> timer) {
  return std::make_unique<WrappedTimer>(std::move(timer));
}

std::unique_ptr<Device> strata::runtime::createHostDevice(std::string name) {
  return wrapRuntimeDevice(rt::createHostDevice(std::move(name)));
}
