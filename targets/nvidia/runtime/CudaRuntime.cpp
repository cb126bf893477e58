//===- CudaRuntime.cpp - NVIDIA bundles on the CUDA driver ----------------===//
//
// The runtime library's device for NVIDIA bundles (BundleFormat.h). The
// driver API is resolved with dlopen/dlsym at run time, so everything builds
// and its tests run on machines without a GPU or driver; there the device
// cannot be created and says so (Status::noDevice). Kernels come from the
// bundle's cubin, or its PTX (JIT-compiled by the driver); each executable
// allocates its functions' temporaries once. The device uses the GPU's
// primary context, the one the CUDA runtime (and PyTorch) use, so buffers
// allocated by either are valid in the other's launches.
//
//===----------------------------------------------------------------------===//
#include "CudaRuntime.h"
#include "BundleFormat.h"
#include "TensorMapEncoding.h"

#include "strata/rt/Device.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>

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

  rt::Status check(CUresult rc, const std::string &what) const {
    if (rc == 0)
      return rt::Status::success();
    const char *text = nullptr;
    if (cuGetErrorString)
      cuGetErrorString(rc, &text);
    return rt::Status::error("CUDA driver: " + what +
                             " failed: " + (text ? text : "unknown error") +
                             " (error " + std::to_string(rc) + ")");
  }
};

template <typename F> bool resolve(void *handle, F &fn, const char *name) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  return fn != nullptr;
}

/// Loads the driver; NoDeviceError when it is absent or incomplete.
rt::Result<std::shared_ptr<Driver>> loadDriver(const std::string &path) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return rt::Status::noDevice(
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
    return rt::Status::noDevice(
        path + " is not a usable CUDA driver: missing " + dlerror());
  resolve(handle, d->cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  return d;
}

class CudaBuffer final : public rt::Buffer {
public:
  CudaBuffer(std::shared_ptr<Driver> d, CUdeviceptr ptr, size_t bytes)
      : driver(std::move(d)), ptr(ptr), bytes(bytes) {}
  ~CudaBuffer() override {
    if (ptr)
      driver->cuMemFree(ptr);
  }
  size_t size() const override { return bytes; }
  void *address() override { return reinterpret_cast<void *>(uintptr_t(ptr)); }
  std::shared_ptr<Driver> driver;
  CUdeviceptr ptr;
  size_t bytes;
};

class CudaExecutable final : public rt::Executable {
public:
  bool hasFunction(const std::string &entry) const override {
    return bundle.find(entry) != nullptr;
  }
  void setManifest(rt::Manifest m) { manifest_ = std::move(m); }
  Bundle bundle;
  CUmodule module = nullptr;
  std::map<std::string, CUfunction> kernels;
  std::map<std::string, std::vector<std::unique_ptr<CudaBuffer>>> temporaries;
};

class CudaTimer final : public rt::Timer {
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

/// The compute capability in an arch string ("sm_90a" -> 90), 0 if none.
unsigned archNumber(const std::string &arch) {
  if (arch.compare(0, 3, "sm_") != 0)
    return 0;
  unsigned value = 0;
  for (size_t i = 3; i < arch.size() && std::isdigit(arch[i]); ++i)
    value = value * 10 + unsigned(arch[i] - '0');
  return value;
}

class CudaDevice final : public rt::Device {
public:
  CudaDevice(std::shared_ptr<Driver> d, std::string name, CUcontext context,
             unsigned capability)
      : driver(std::move(d)), name_(std::move(name)), context(context),
        capability(capability) {}
  std::string name() const override { return name_; }

  rt::Result<std::unique_ptr<rt::Buffer>> allocate(size_t bytes) override {
    CUdeviceptr ptr = 0;
    if (rt::Status s = makeCurrent(); !s.ok())
      return s;
    if (rt::Status s =
            driver->check(driver->cuMemAlloc(&ptr, std::max<size_t>(bytes, 1)),
                          "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
        !s.ok())
      return s;
    return std::unique_ptr<rt::Buffer>(
        std::make_unique<CudaBuffer>(driver, ptr, bytes));
  }
  rt::Status copyToDevice(rt::Buffer &dst, const void *src,
                          size_t bytes) override {
    auto &b = static_cast<CudaBuffer &>(dst);
    if (bytes > b.bytes)
      return rt::Status::error("copy larger than the device buffer");
    return driver->check(driver->cuMemcpyHtoD(b.ptr, src, bytes),
                         "cuMemcpyHtoD");
  }
  rt::Status copyToHost(void *dst, rt::Buffer &src, size_t bytes) override {
    auto &b = static_cast<CudaBuffer &>(src);
    if (bytes > b.bytes)
      return rt::Status::error("copy larger than the device buffer");
    return driver->check(driver->cuMemcpyDtoH(dst, b.ptr, bytes),
                         "cuMemcpyDtoH");
  }

  rt::Result<std::unique_ptr<rt::Executable>>
  load(const std::string &path) override {
    auto text = rt::readFile(path);
    if (!text.ok())
      return text.status();
    auto bundle = Bundle::parse(*text, path);
    if (!bundle.ok())
      return bundle.status();
    unsigned wanted = archNumber(bundle->arch);
    if (wanted == 0)
      return rt::Status::error(path + ": unknown arch '" + bundle->arch +
                               "' (expected sm_NN)");
    if (capability < wanted)
      return rt::Status::error(path + ": compiled for " + bundle->chip + " (" +
                               bundle->arch + "), but the GPU here is sm_" +
                               std::to_string(capability) + " (" + name_ +
                               "); compile for a description of this GPU");
    if (bundle->cubin.empty() && bundle->ptx.empty())
      return rt::Status::error(path + ": the bundle has neither a cubin nor "
                                      "PTX");
    if (rt::Status s = makeCurrent(); !s.ok())
      return s;
    auto exe = std::make_unique<CudaExecutable>();
    exe->bundle = std::move(*bundle);
    if (exe->bundle.manifest) {
      exe->bundle.manifest->deviceKind = "cuda";
      exe->setManifest(*exe->bundle.manifest);
    }
    const std::string &image =
        exe->bundle.cubin.empty() ? exe->bundle.ptx : exe->bundle.cubin;
    if (rt::Status s =
            driver->check(driver->cuModuleLoadData(&exe->module, image.c_str()),
                          "cuModuleLoadData(" + path + ")");
        !s.ok())
      return s;
    for (const FunctionPlan &f : exe->bundle.functions)
      for (const LaunchStep &s : f.steps) {
        if (exe->kernels.count(s.kernel))
          continue;
        CUfunction fn = nullptr;
        if (rt::Status st = driver->check(
                driver->cuModuleGetFunction(&fn, exe->module, s.kernel.c_str()),
                path + ": cuModuleGetFunction(" + s.kernel + ")");
            !st.ok())
          return st;
        // Above 48 KiB, dynamic shared memory must be opted into.
        if (rt::Status st = driver->check(
                driver->cuFuncSetAttribute(fn, kMaxDynamicSharedAttr,
                                           int(s.sharedBytes)),
                path + ": kernel '" + s.kernel + "' asks for " +
                    std::to_string(s.sharedBytes) +
                    " bytes of shared memory: cuFuncSetAttribute");
            !st.ok())
          return st;
        exe->kernels[s.kernel] = fn;
      }
    return std::unique_ptr<rt::Executable>(std::move(exe));
  }

  rt::Status launch(rt::Executable &executable, const rt::Signature &signature,
                    const std::vector<void *> &args, void *stream) override {
    auto &exe = static_cast<CudaExecutable &>(executable);
    const FunctionPlan *plan = exe.bundle.find(signature.name);
    if (!plan)
      return rt::Status::error("the bundle has no function '" + signature.name +
                               "'");
    if (int64_t(args.size()) != plan->arguments)
      return rt::Status::error("'" + plan->name + "' takes " +
                               std::to_string(plan->arguments) + " buffers, " +
                               std::to_string(args.size()) + " given");
    if (rt::Status s = makeCurrent(); !s.ok())
      return s;
    auto &temps = exe.temporaries[plan->name];
    if (temps.empty())
      for (int64_t bytes : plan->temporaries) {
        auto buffer = allocate(size_t(bytes));
        if (!buffer.ok())
          return buffer.status();
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
                             ? temps[size_t(a.index)]->ptr
                             : CUdeviceptr(uintptr_t(args[size_t(a.index)])));
        if (!a.tensorMap) {
          params.push_back(&values.back());
          continue;
        }
        auto map = encodeTensorMap(*a.tensorMap, values.back());
        if (!map.ok())
          return map.status().withContext("kernel '" + step.kernel + "'");
        maps.push_back(*map);
        params.push_back(&maps.back());
      }
      if (rt::Status s = driver->check(
              driver->cuLaunchKernel(
                  exe.kernels.at(step.kernel), unsigned(step.grid[0]),
                  unsigned(step.grid[1]), unsigned(step.grid[2]),
                  unsigned(step.block[0]), unsigned(step.block[1]),
                  unsigned(step.block[2]), unsigned(step.sharedBytes),
                  static_cast<CUstream>(stream), params.data(), nullptr),
              "cuLaunchKernel(" + step.kernel + ")");
          !s.ok())
        return s;
    }
    return rt::Status::success();
  }

  /// The CUtensorMap of `info` over device address `address`.
  rt::Result<TensorMapBytes> encodeTensorMap(const TensorMapInfo &info,
                                             CUdeviceptr address) {
    if (!driver->cuTensorMapEncodeTiled)
      return rt::Status::error(
          "the CUDA driver has no cuTensorMapEncodeTiled (CUDA 12 or later "
          "is needed for TMA)");
    auto e = tiledEncoding(info);
    if (!e.ok())
      return e.status();
    TensorMapBytes map;
    if (rt::Status s = driver->check(
            driver->cuTensorMapEncodeTiled(
                &map, e->dataType, e->rank,
                reinterpret_cast<void *>(uintptr_t(address)),
                e->globalDim.data(), e->globalStride.data(), e->boxDim.data(),
                e->elementStride.data(), e->interleave, e->swizzle,
                e->l2Promotion, e->oobFill),
            "cuTensorMapEncodeTiled");
        !s.ok())
      return s;
    return map;
  }

  rt::Status synchronize() override {
    if (rt::Status s = makeCurrent(); !s.ok())
      return s;
    return driver->check(driver->cuCtxSynchronize(), "cuCtxSynchronize");
  }

  std::unique_ptr<rt::Timer> createTimer() override {
    return std::make_unique<CudaTimer>(driver);
  }

private:
  /// Calls may come from any thread (Python's): the device's context is
  /// made current on the calling one.
  rt::Status makeCurrent() {
    return driver->check(driver->cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }

  std::shared_ptr<Driver> driver;
  std::string name_;
  CUcontext context;
  unsigned capability;
};

} // namespace

rt::Result<std::unique_ptr<rt::Device>>
strata::nvidia::createCudaRuntimeDevice(int ordinal,
                                        std::string driverLibrary) {
  if (driverLibrary.empty()) {
    const char *env = std::getenv("STRATA_CUDA_DRIVER");
    driverLibrary = env && *env ? env : "libcuda.so.1";
  }
  auto loaded = loadDriver(driverLibrary);
  if (!loaded.ok())
    return loaded.status();
  std::shared_ptr<Driver> d = *loaded;
  CUresult rc = d->cuInit(0);
  int count = 0;
  if (rc == 0)
    rc = d->cuDeviceGetCount(&count);
  if (rc == kNoDevice || (rc == 0 && count == 0))
    return rt::Status::noDevice(
        "the NVIDIA driver is installed but reports no GPU");
  if (rt::Status s = d->check(rc, "cuInit"); !s.ok())
    return rt::Status::noDevice("the NVIDIA driver cannot start: " +
                                s.message());
  if (ordinal < 0 || ordinal >= count)
    return rt::Status::error("no CUDA device " + std::to_string(ordinal) +
                             ": this machine has " + std::to_string(count));
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  if (rt::Status s = d->check(d->cuDeviceGet(&dev, ordinal), "cuDeviceGet");
      !s.ok())
    return s;
  int major = 0, minor = 0;
  d->cuDeviceGetAttribute(&major, kComputeMajorAttr, dev);
  d->cuDeviceGetAttribute(&minor, kComputeMinorAttr, dev);
  char deviceName[256] = {0};
  d->cuDeviceGetName(deviceName, sizeof(deviceName) - 1, dev);
  if (rt::Status s = d->check(d->cuDevicePrimaryCtxRetain(&ctx, dev),
                              "cuDevicePrimaryCtxRetain");
      !s.ok())
    return s;
  if (rt::Status s = d->check(d->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
      !s.ok())
    return s;
  return std::unique_ptr<rt::Device>(std::make_unique<CudaDevice>(
      d, deviceName, ctx, unsigned(major * 10 + minor)));
}

namespace {
[[maybe_unused]] const bool registered = rt::registerArtifactKind(
    {"cuda", looksLikeBundle,
     [](const std::string &path) {
       auto text = rt::readFile(path);
       if (!text.ok())
         return text.status();
       auto bundle = Bundle::parse(*text, path);
       return bundle.ok() ? rt::Status::success() : bundle.status();
     },
     [](int ordinal) { return createCudaRuntimeDevice(ordinal); }});
} // namespace
