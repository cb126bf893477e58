//===- CudaDevice.cpp - The CUDA driver as a runtime::Device --------------===//
//
// The driver API is resolved with dlopen/dlsym at run time, so the plugin
// builds and its tests run on machines without a GPU or driver; there the
// device cannot be created and says so (runtime::NoDeviceError). Kernels
// come from the bundle's cubin, or its PTX (JIT-compiled by the driver);
// each launch allocates the function's temporaries once per executable.
//
//===----------------------------------------------------------------------===//
#include "CudaDevice.h"
#include "Bundle.h"
#include "TensorMapEncoding.h"

#include "strata/Runtime/NoDevice.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>

using namespace strata;
using namespace strata::nvidia;

namespace {
// The few driver types and entry points used (CUDA driver API, cuda.h).
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUevent = void *;
using CUstream = void *;
constexpr int kMaxDynamicSharedAttr =
    8; // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
constexpr int kComputeMajorAttr =
    75; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeMinorAttr = 76;
constexpr CUresult kNoDevice = 100; // CUDA_ERROR_NO_DEVICE

struct Driver {
  void *handle = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  // CUDA 12 and later (TMA): resolved when present, needed by tensor maps.
  CUresult (*cuTensorMapEncodeTiled)(TensorMapBytes *, int, uint32_t, void *,
                                     const uint64_t *, const uint64_t *,
                                     const uint32_t *, const uint32_t *, int,
                                     int, int, int) = nullptr;

  llvm::Error check(CUresult rc, llvm::StringRef what) const {
    if (rc == 0)
      return llvm::Error::success();
    const char *text = nullptr;
    if (cuGetErrorString)
      cuGetErrorString(rc, &text);
    return llvm::createStringError(
        llvm::formatv("CUDA driver: {0} failed: {1} (error {2})", what,
                      text ? text : "unknown error", rc));
  }
};

template <typename F> bool resolve(void *handle, F &fn, const char *name) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

/// Loads the driver; NoDeviceError when it is absent or incomplete.
llvm::Expected<std::shared_ptr<Driver>> loadDriver(const std::string &path) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return llvm::make_error<runtime::NoDeviceError>(
        "no NVIDIA driver on this machine: cannot load " + path + " (" +
        dlerror() + ")");
  auto d = std::make_shared<Driver>();
  d->handle = handle;
  bool ok = resolve(handle, d->cuInit, "cuInit") &&
            resolve(handle, d->cuDeviceGetCount, "cuDeviceGetCount") &&
            resolve(handle, d->cuDeviceGet, "cuDeviceGet") &&
            resolve(handle, d->cuDeviceGetName, "cuDeviceGetName") &&
            resolve(handle, d->cuDeviceGetAttribute, "cuDeviceGetAttribute") &&
            resolve(handle, d->cuDevicePrimaryCtxRetain,
                    "cuDevicePrimaryCtxRetain") &&
            resolve(handle, d->cuCtxSetCurrent, "cuCtxSetCurrent") &&
            resolve(handle, d->cuCtxSynchronize, "cuCtxSynchronize") &&
            resolve(handle, d->cuMemAlloc, "cuMemAlloc_v2") &&
            resolve(handle, d->cuMemFree, "cuMemFree_v2") &&
            resolve(handle, d->cuMemcpyHtoD, "cuMemcpyHtoD_v2") &&
            resolve(handle, d->cuMemcpyDtoH, "cuMemcpyDtoH_v2") &&
            resolve(handle, d->cuModuleLoadData, "cuModuleLoadData") &&
            resolve(handle, d->cuModuleGetFunction, "cuModuleGetFunction") &&
            resolve(handle, d->cuFuncSetAttribute, "cuFuncSetAttribute") &&
            resolve(handle, d->cuLaunchKernel, "cuLaunchKernel") &&
            resolve(handle, d->cuEventCreate, "cuEventCreate") &&
            resolve(handle, d->cuEventRecord, "cuEventRecord") &&
            resolve(handle, d->cuEventSynchronize, "cuEventSynchronize") &&
            resolve(handle, d->cuEventElapsedTime, "cuEventElapsedTime") &&
            resolve(handle, d->cuEventDestroy, "cuEventDestroy_v2") &&
            resolve(handle, d->cuGetErrorString, "cuGetErrorString");
  if (!ok)
    return llvm::make_error<runtime::NoDeviceError>(
        path + " is not a usable CUDA driver: missing " + dlerror());
  resolve(handle, d->cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  return d;
}

class CudaBuffer final : public runtime::Buffer {
public:
  CudaBuffer(std::shared_ptr<Driver> d, CUdeviceptr ptr, size_t bytes)
      : driver(std::move(d)), ptr(ptr), bytes(bytes) {}
  ~CudaBuffer() override {
    if (ptr)
      driver->cuMemFree(ptr);
  }
  size_t size() const override { return bytes; }
  std::shared_ptr<Driver> driver;
  CUdeviceptr ptr;
  size_t bytes;
};

class CudaExecutable final : public runtime::Executable {
public:
  bool hasFunction(llvm::StringRef entry) const override {
    return bundle.find(entry) != nullptr;
  }
  Bundle bundle;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> kernels;
  std::map<std::string, std::vector<std::unique_ptr<CudaBuffer>>> temporaries;
};

class CudaTimer final : public runtime::Timer {
public:
  CudaTimer(std::shared_ptr<Driver> d) : driver(std::move(d)) {
    driver->cuEventCreate(&begin, 0);
    driver->cuEventCreate(&end, 0);
  }
  ~CudaTimer() override {
    driver->cuEventDestroy(begin);
    driver->cuEventDestroy(end);
  }
  void start() override { driver->cuEventRecord(begin, nullptr); }
  double stop() override {
    driver->cuEventRecord(end, nullptr);
    driver->cuEventSynchronize(end);
    float ms = 0;
    driver->cuEventElapsedTime(&ms, begin, end);
    return double(ms) / 1e3;
  }
  std::shared_ptr<Driver> driver;
  CUevent begin = nullptr, end = nullptr;
};

class CudaDevice final : public runtime::Device {
public:
  CudaDevice(std::shared_ptr<Driver> d, std::string name)
      : driver(std::move(d)), name(std::move(name)) {}
  std::string getName() const override { return name; }

  llvm::Expected<std::unique_ptr<runtime::Buffer>>
  allocate(size_t bytes) override {
    CUdeviceptr ptr = 0;
    if (llvm::Error e = driver->check(
            driver->cuMemAlloc(&ptr, std::max<size_t>(bytes, 1)), "cuMemAlloc"))
      return std::move(e);
    return std::make_unique<CudaBuffer>(driver, ptr, bytes);
  }
  llvm::Error copyToDevice(runtime::Buffer &dst, const void *src,
                           size_t bytes) override {
    auto &b = static_cast<CudaBuffer &>(dst);
    if (bytes > b.bytes)
      return llvm::createStringError("copy larger than the device buffer");
    return driver->check(driver->cuMemcpyHtoD(b.ptr, src, bytes),
                         "cuMemcpyHtoD");
  }
  llvm::Error copyToHost(void *dst, runtime::Buffer &src,
                         size_t bytes) override {
    auto &b = static_cast<CudaBuffer &>(src);
    if (bytes > b.bytes)
      return llvm::createStringError("copy larger than the device buffer");
    return driver->check(driver->cuMemcpyDtoH(dst, b.ptr, bytes),
                         "cuMemcpyDtoH");
  }

  llvm::Expected<std::unique_ptr<runtime::Executable>>
  load(llvm::StringRef path) override {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file)
      return llvm::createStringError(file.getError(), "cannot read " + path);
    nlohmann::json doc =
        nlohmann::json::parse((*file)->getBuffer().str(), nullptr, false);
    if (doc.is_discarded())
      return llvm::createStringError(path + ": not a JSON bundle");
    auto bundle = Bundle::fromJson(doc);
    if (!bundle)
      return bundle.takeError();
    auto exe = std::make_unique<CudaExecutable>();
    exe->bundle = std::move(*bundle);
    const std::string &image =
        exe->bundle.cubin.empty() ? exe->bundle.ptx : exe->bundle.cubin;
    if (llvm::Error e =
            driver->check(driver->cuModuleLoadData(&exe->module, image.c_str()),
                          "cuModuleLoadData"))
      return std::move(e);
    for (const FunctionPlan &f : exe->bundle.functions)
      for (const LaunchStep &s : f.steps) {
        if (exe->kernels.count(s.kernel))
          continue;
        CUfunction fn = nullptr;
        if (llvm::Error e = driver->check(
                driver->cuModuleGetFunction(&fn, exe->module, s.kernel.c_str()),
                "cuModuleGetFunction(" + s.kernel + ")"))
          return std::move(e);
        // Above 48 KiB, dynamic shared memory must be opted into.
        if (llvm::Error e = driver->check(
                driver->cuFuncSetAttribute(fn, kMaxDynamicSharedAttr,
                                           int(s.sharedBytes)),
                "cuFuncSetAttribute(max dynamic shared memory)"))
          return std::move(e);
        exe->kernels[s.kernel] = fn;
      }
    return std::unique_ptr<runtime::Executable>(std::move(exe));
  }

  llvm::Error launch(runtime::Executable &executable,
                     const runtime::Signature &signature,
                     llvm::ArrayRef<runtime::Buffer *> args) override {
    auto &exe = static_cast<CudaExecutable &>(executable);
    const FunctionPlan *plan = exe.bundle.find(signature.name);
    if (!plan)
      return llvm::createStringError("the bundle has no function '" +
                                     signature.name + "'");
    if (int64_t(args.size()) != plan->arguments)
      return llvm::createStringError(
          llvm::formatv("'{0}' takes {1} buffers, {2} given", plan->name,
                        plan->arguments, args.size()));
    auto &temps = exe.temporaries[plan->name];
    if (temps.empty())
      for (int64_t bytes : plan->temporaries) {
        auto buffer = allocate(size_t(bytes));
        if (!buffer)
          return buffer.takeError();
        temps.emplace_back(static_cast<CudaBuffer *>(buffer->release()));
      }
    for (const LaunchStep &step : plan->steps) {
      // Pointers are passed by address; tensor maps (128 bytes, encoded
      // here over the buffer's device address) by value.
      std::vector<CUdeviceptr> values;
      std::vector<TensorMapBytes> maps;
      values.reserve(step.args.size());
      maps.reserve(step.args.size());
      std::vector<void *> params;
      for (const KernelArg &a : step.args) {
        values.push_back(a.temporary
                             ? temps[a.index]->ptr
                             : static_cast<CudaBuffer *>(args[a.index])->ptr);
        if (!a.tensorMap) {
          params.push_back(&values.back());
          continue;
        }
        auto map = encodeTensorMap(*a.tensorMap, values.back());
        if (!map)
          return map.takeError();
        maps.push_back(*map);
        params.push_back(&maps.back());
      }
      if (llvm::Error e = driver->check(
              driver->cuLaunchKernel(
                  exe.kernels.at(step.kernel), unsigned(step.grid[0]),
                  unsigned(step.grid[1]), unsigned(step.grid[2]),
                  unsigned(step.block[0]), unsigned(step.block[1]),
                  unsigned(step.block[2]), unsigned(step.sharedBytes), nullptr,
                  params.data(), nullptr),
              "cuLaunchKernel(" + step.kernel + ")"))
        return e;
    }
    return llvm::Error::success();
  }

  /// The CUtensorMap of `info` over device address `address`.
  llvm::Expected<TensorMapBytes> encodeTensorMap(const TensorMapInfo &info,
                                                 CUdeviceptr address) {
    if (!driver->cuTensorMapEncodeTiled)
      return llvm::createStringError(
          "the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later "
          "is needed for TMA)");
    auto e = tiledEncoding(info);
    if (!e)
      return e.takeError();
    TensorMapBytes map;
    if (llvm::Error err = driver->check(
            driver->cuTensorMapEncodeTiled(
                &map, e->dataType, e->rank,
                reinterpret_cast<void *>(uintptr_t(address)),
                e->globalDim.data(), e->globalStride.data(), e->boxDim.data(),
                e->elementStride.data(), e->interleave, e->swizzle,
                e->l2Promotion, e->oobFill),
            "cuTensorMapEncodeTiled"))
      return std::move(err);
    return map;
  }

  llvm::Error synchronize() override {
    return driver->check(driver->cuCtxSynchronize(), "cuCtxSynchronize");
  }

  std::unique_ptr<runtime::Timer> createTimer() override {
    return std::make_unique<CudaTimer>(driver);
  }

private:
  std::shared_ptr<Driver> driver;
  std::string name;
};
} // namespace

llvm::Expected<std::unique_ptr<runtime::Device>>
strata::nvidia::createCudaDevice(const hw::Description &chip,
                                 std::string driverLibrary) {
  if (driverLibrary.empty()) {
    const char *env = std::getenv("STRATA_CUDA_DRIVER");
    driverLibrary = env ? env : "libcuda.so.1";
  }
  auto loaded = loadDriver(driverLibrary);
  if (!loaded)
    return loaded.takeError();
  std::shared_ptr<Driver> d = *loaded;
  CUresult rc = d->cuInit(0);
  int count = 0;
  if (rc == 0)
    rc = d->cuDeviceGetCount(&count);
  if (rc == kNoDevice || (rc == 0 && count == 0))
    return llvm::make_error<runtime::NoDeviceError>(
        "the NVIDIA driver is installed but reports no GPU");
  if (llvm::Error e = d->check(rc, "cuInit"))
    return llvm::make_error<runtime::NoDeviceError>(
        "the NVIDIA driver cannot start: " + llvm::toString(std::move(e)));
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  if (llvm::Error e = d->check(d->cuDeviceGet(&dev, 0), "cuDeviceGet"))
    return std::move(e);
  int major = 0, minor = 0;
  d->cuDeviceGetAttribute(&major, kComputeMajorAttr, dev);
  d->cuDeviceGetAttribute(&minor, kComputeMinorAttr, dev);
  unsigned wanted = 0;
  llvm::StringRef arch(chip.arch);
  arch.consume_front("sm_");
  arch.take_while([](char c) { return std::isdigit(c); })
      .getAsInteger(10, wanted);
  if (unsigned(major * 10 + minor) < wanted)
    return llvm::createStringError(llvm::formatv(
        "the GPU here is sm_{0}{1}; code for '{2}' ({3}) cannot run on it",
        major, minor, chip.name, chip.arch));
  char deviceName[256] = {0};
  d->cuDeviceGetName(deviceName, sizeof(deviceName) - 1, dev);
  if (llvm::Error e =
          d->check(d->cuDevicePrimaryCtxRetain(&ctx, dev), "context"))
    return std::move(e);
  if (llvm::Error e = d->check(d->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
    return std::move(e);
  return std::make_unique<CudaDevice>(d, chip.name + " (" + deviceName + ")");
}
