//===- HostDevice.cpp - Run shared libraries in this process --------------===//
#include "strata/Runtime/HostDevice.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <utility>

using namespace strata::runtime;

namespace {

/// 64-byte aligned host memory. Large buffers ask for transparent huge pages:
/// first touch of 4 KiB pages is slow enough to distort timings.
class HostBuffer final : public Buffer {
public:
  explicit HostBuffer(size_t bytes) : bytes(bytes) {
    size_t rounded = (bytes + 63) / 64 * 64;
    data = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
    if (data && rounded >= (size_t(2) << 20))
      madvise(data, rounded, MADV_HUGEPAGE);
  }
  ~HostBuffer() override { std::free(data); }
  size_t size() const override { return bytes; }
  void *hostPointer() override { return data; }
  bool valid() const { return data != nullptr; }

private:
  size_t bytes;
  void *data = nullptr;
};

class HostLibrary final : public Executable {
public:
  explicit HostLibrary(void *handle) : handle(handle) {}
  ~HostLibrary() override { dlclose(handle); }
  bool hasFunction(llvm::StringRef entry) const override {
    return lookup(entry) != nullptr;
  }
  void *lookup(llvm::StringRef entry) const {
    std::string symbol = ("_mlir_ciface_" + entry).str();
    return dlsym(handle, symbol.c_str());
  }

private:
  void *handle;
};

/// A memref descriptor of any rank as MLIR lays it out: allocated pointer,
/// aligned pointer, offset, sizes[rank], strides[rank] (all 8 bytes).
std::vector<int64_t> makeDescriptor(void *data, const TensorSpec &spec) {
  std::vector<int64_t> desc;
  desc.push_back(reinterpret_cast<int64_t>(data));
  desc.push_back(reinterpret_cast<int64_t>(data));
  desc.push_back(0);
  for (int64_t dim : spec.shape)
    desc.push_back(dim);
  int64_t stride = 1;
  std::vector<int64_t> strides(spec.shape.size());
  for (size_t i = spec.shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= spec.shape[i];
  }
  desc.insert(desc.end(), strides.begin(), strides.end());
  return desc;
}

template <size_t... I>
void callWith(void *fn, void **args, std::index_sequence<I...>) {
  using Fn = void (*)(decltype((void)I, (void *)nullptr)...);
  reinterpret_cast<Fn>(fn)(args[I]...);
}

template <size_t... N>
void dispatch(void *fn, void **args, size_t count, std::index_sequence<N...>) {
  (void)((count == N ? (callWith(fn, args, std::make_index_sequence<N>()), true)
                     : false) ||
         ...);
}

class HostDevice final : public Device {
public:
  explicit HostDevice(std::string name) : name(std::move(name)) {}
  std::string getName() const override { return name; }

  llvm::Expected<std::unique_ptr<Buffer>> allocate(size_t bytes) override {
    auto buffer = std::make_unique<HostBuffer>(bytes);
    if (!buffer->valid())
      return llvm::createStringError(
          llvm::formatv("cannot allocate {0} bytes of host memory", bytes));
    return std::unique_ptr<Buffer>(std::move(buffer));
  }

  llvm::Error copyToDevice(Buffer &dst, const void *src,
                           size_t bytes) override {
    std::memcpy(dst.hostPointer(), src, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *dst, Buffer &src, size_t bytes) override {
    std::memcpy(dst, src.hostPointer(), bytes);
    return llvm::Error::success();
  }

  llvm::Expected<std::unique_ptr<Executable>>
  load(llvm::StringRef path) override {
    void *handle = dlopen(path.str().c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return llvm::createStringError(
          llvm::formatv("cannot load '{0}': {1}", path, dlerror()));
    return std::unique_ptr<Executable>(std::make_unique<HostLibrary>(handle));
  }

  llvm::Error launch(Executable &executable, const Signature &signature,
                     llvm::ArrayRef<Buffer *> args) override {
    void *fn = static_cast<HostLibrary &>(executable).lookup(signature.name);
    if (!fn)
      return llvm::createStringError(llvm::formatv(
          "the library exports no function _mlir_ciface_{0}", signature.name));
    size_t count = signature.inputs.size() + signature.outputs.size();
    if (args.size() != count)
      return llvm::createStringError(
          llvm::formatv("'{0}' takes {1} buffers, got {2}", signature.name,
                        count, args.size()));
    if (count > kMaxHostArguments)
      return llvm::createStringError(
          llvm::formatv("'{0}' takes {1} buffers; at most {2} are supported",
                        signature.name, count, kMaxHostArguments));
    std::vector<std::vector<int64_t>> descriptors;
    std::vector<void *> pointers;
    for (size_t i = 0; i < count; ++i) {
      const TensorSpec &spec =
          i < signature.inputs.size()
              ? signature.inputs[i]
              : signature.outputs[i - signature.inputs.size()];
      descriptors.push_back(makeDescriptor(args[i]->hostPointer(), spec));
    }
    for (auto &desc : descriptors)
      pointers.push_back(desc.data());
    dispatch(fn, pointers.data(), count,
             std::make_index_sequence<kMaxHostArguments + 1>());
    return llvm::Error::success();
  }

private:
  std::string name;
};

} // namespace

std::unique_ptr<Device> strata::runtime::createHostDevice(std::string name) {
  return std::make_unique<HostDevice>(std::move(name));
}
