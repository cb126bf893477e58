//===- HostDevice.cpp - Run shared libraries in this process --------------===//
//
// A host artifact is a shared library exporting `_mlir_ciface_<fn>` for each
// function (docs/abi.md: every argument a pointer to a memref descriptor)
// and its manifest as the C string `strata_manifest`.
//
//===----------------------------------------------------------------------===//
#include "strata/rt/Device.h"
#include "strata/rt/HostAllocator.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <utility>

using namespace strata::rt;

namespace {

/// The most buffers a host function may take (calls are dispatched through
/// a fixed set of function types).
constexpr size_t kMaxHostArguments = 32;

/// 64-byte aligned host memory (huge pages for large buffers).
class HostBuffer final : public Buffer {
public:
  explicit HostBuffer(size_t bytes)
      : bytes(bytes), data(allocateHostMemory(64, bytes)) {}
  ~HostBuffer() override { std::free(data); }
  size_t size() const override { return bytes; }
  void *address() override { return data; }
  void *hostPointer() override { return data; }
  bool valid() const { return data != nullptr; }

private:
  size_t bytes;
  void *data;
};

class HostLibrary final : public Executable {
public:
  explicit HostLibrary(void *handle) : handle(handle) {}
  ~HostLibrary() override { dlclose(handle); }
  bool hasFunction(const std::string &entry) const override {
    return lookup(entry) != nullptr;
  }
  void *lookup(const std::string &entry) const {
    return dlsym(handle, ("_mlir_ciface_" + entry).c_str());
  }
  Status readManifest(const std::string &path) {
    const char *json =
        static_cast<const char *>(dlsym(handle, "strata_manifest"));
    if (!json)
      return Status::success(); // a library written without one
    auto parsed = Manifest::fromJson(json, path);
    if (!parsed.ok())
      return parsed.status();
    manifest_ = std::move(*parsed);
    return Status::success();
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

/// A shared library cut short makes dlopen fault (SIGBUS) rather than fail:
/// the ELF header's tables and every loaded segment must lie in the file.
Status validateElf(const std::string &path) {
  auto bytes = readFile(path);
  if (!bytes.ok())
    return bytes.status();
  const std::string &f = *bytes;
  auto fail = [&](const std::string &why) {
    return Status::error("'" + path + "' is not a complete shared library (" +
                         why + "): the file is truncated or damaged");
  };
  auto read = [&](size_t at, size_t size, uint64_t &out) {
    if (at + size > f.size())
      return false;
    out = 0;
    for (size_t i = size; i-- > 0;)
      out = out << 8 | uint8_t(f[at + i]);
    return true;
  };
  if (f.size() < 64 || f[4] != 2 || f[5] != 1)
    return fail("not a 64-bit little-endian ELF file");
  uint64_t phoff, phentsize, phnum, shoff, shentsize, shnum;
  if (!read(32, 8, phoff) || !read(40, 8, shoff) || !read(54, 2, phentsize) ||
      !read(56, 2, phnum) || !read(58, 2, shentsize) || !read(60, 2, shnum))
    return fail("short ELF header");
  if (phoff + phnum * phentsize > f.size() ||
      shoff + shnum * shentsize > f.size())
    return fail("its header tables end past the file's " +
                std::to_string(f.size()) + " bytes");
  for (uint64_t i = 0; i < phnum; ++i) {
    uint64_t type, offset, fileSize;
    size_t at = size_t(phoff + i * phentsize);
    if (!read(at, 4, type) || !read(at + 8, 8, offset) ||
        !read(at + 32, 8, fileSize))
      return fail("short program header");
    if (type == 1 /* PT_LOAD */ && offset + fileSize > f.size())
      return fail("a segment ends past the file's " + std::to_string(f.size()) +
                  " bytes");
  }
  return Status::success();
}

class HostDevice final : public Device {
public:
  explicit HostDevice(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }

  Result<std::unique_ptr<Buffer>> allocate(size_t bytes) override {
    auto buffer = std::make_unique<HostBuffer>(bytes);
    if (!buffer->valid())
      return Status::error("cannot allocate " + std::to_string(bytes) +
                           " bytes of host memory");
    return std::unique_ptr<Buffer>(std::move(buffer));
  }

  Status copyToDevice(Buffer &dst, const void *src, size_t bytes) override {
    if (bytes > dst.size())
      return Status::error("copy larger than the buffer");
    std::memcpy(dst.hostPointer(), src, bytes);
    return Status::success();
  }
  Status copyToHost(void *dst, Buffer &src, size_t bytes) override {
    if (bytes > src.size())
      return Status::error("copy larger than the buffer");
    std::memcpy(dst, src.hostPointer(), bytes);
    return Status::success();
  }

  Result<std::unique_ptr<Executable>> load(const std::string &path) override {
    if (Status s = validateElf(path); !s.ok())
      return s;
    // A name without a slash is a file here, not a library to search for.
    std::string file = path.find('/') == std::string::npos ? "./" + path : path;
    void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return Status::error("cannot load '" + path + "': " + dlerror());
    auto library = std::make_unique<HostLibrary>(handle);
    // Temporaries through the allocator that keeps them between calls
    // (libraries compiled before the hook existed have no setter).
    using Alloc = void *(*)(uint64_t);
    using Free = void (*)(void *);
    if (void *setter = dlsym(handle, "strata_set_host_allocator"))
      reinterpret_cast<void (*)(Alloc, Free)>(setter)(hostTemporaryAlloc,
                                                      hostTemporaryFree);
    if (Status s = library->readManifest(path); !s.ok())
      return s;
    return std::unique_ptr<Executable>(std::move(library));
  }

  Status launch(Executable &executable, const Signature &signature,
                const std::vector<void *> &args, void *) override {
    void *fn = static_cast<HostLibrary &>(executable).lookup(signature.name);
    if (!fn)
      return Status::error("the library exports no function _mlir_ciface_" +
                           signature.name);
    size_t count = signature.inputs.size() + signature.outputs.size();
    if (args.size() != count)
      return Status::error("'" + signature.name + "' takes " +
                           std::to_string(count) + " buffers, got " +
                           std::to_string(args.size()));
    if (count > kMaxHostArguments)
      return Status::error("'" + signature.name + "' takes " +
                           std::to_string(count) + " buffers; at most " +
                           std::to_string(kMaxHostArguments) +
                           " are supported");
    std::vector<std::vector<int64_t>> descriptors;
    std::vector<void *> pointers;
    for (size_t i = 0; i < count; ++i) {
      const TensorSpec &spec =
          i < signature.inputs.size()
              ? signature.inputs[i]
              : signature.outputs[i - signature.inputs.size()];
      descriptors.push_back(makeDescriptor(args[i], spec));
    }
    for (auto &desc : descriptors)
      pointers.push_back(desc.data());
    dispatch(fn, pointers.data(), count,
             std::make_index_sequence<kMaxHostArguments + 1>());
    return Status::success();
  }

private:
  std::string name_;
};

const bool registered = registerArtifactKind(
    {"host",
     [](const std::string &head) {
       return head.compare(0, 4,
                           "\x7f"
                           "ELF") == 0;
     },
     validateElf,
     [](int) -> Result<std::unique_ptr<Device>> {
       return std::unique_ptr<Device>(std::make_unique<HostDevice>("host"));
     }});

} // namespace

std::unique_ptr<Device> strata::rt::createHostDevice(std::string name) {
  (void)registered;
  return std::make_unique<HostDevice>(std::move(name));
}
