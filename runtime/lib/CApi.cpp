//===- CApi.cpp - strata_runtime.h over the C++ runtime -------------------===//
#include "strata_runtime.h"

#include "strata/rt/Device.h"

#include <exception>
#include <string>

using namespace strata::rt;

struct strata_executable {
  std::unique_ptr<Device> device;
  std::unique_ptr<Executable> executable;
  std::string kind;
  std::string manifestJson;
};

namespace {
thread_local std::string lastError;

int fail(const Status &status) {
  lastError = status.message();
  return status.isNoDevice() ? STRATA_NO_DEVICE : STRATA_ERROR;
}
int fail(const std::string &message) { return fail(Status::error(message)); }
} // namespace

extern "C" int strata_load(const char *path, int deviceOrdinal,
                           strata_executable **out) {
  if (!path || !out)
    return fail("strata_load: path and out must not be null");
  *out = nullptr;
  try {
    auto kind = artifactKindOf(path);
    if (!kind.ok())
      return fail(kind.status());
    if ((*kind)->validate)
      if (Status s = (*kind)->validate(path); !s.ok())
        return fail(s);
    auto device = (*kind)->createDevice(deviceOrdinal);
    if (!device.ok())
      return fail(device.status());
    auto executable = (*device)->load(path);
    if (!executable.ok())
      return fail(executable.status());
    auto *exe = new strata_executable;
    exe->device = std::move(*device);
    exe->executable = std::move(*executable);
    exe->kind = (*kind)->name;
    exe->manifestJson = exe->executable->manifest().toJson();
    *out = exe;
    return STRATA_OK;
  } catch (const std::exception &e) {
    return fail(std::string(path) + ": " + e.what());
  }
}

extern "C" void strata_release(strata_executable *exe) { delete exe; }

extern "C" const char *strata_last_error(void) { return lastError.c_str(); }

extern "C" const char *strata_manifest_json(const strata_executable *exe) {
  return exe ? exe->manifestJson.c_str() : "";
}

extern "C" const char *strata_device_kind(const strata_executable *exe) {
  return exe ? exe->kind.c_str() : "";
}

extern "C" int strata_call(strata_executable *exe, const char *function,
                           void *const *args, int nargs, void *stream) {
  if (!exe || !function || (nargs > 0 && !args))
    return fail("strata_call: executable, function and args must not be "
                "null");
  const Manifest &manifest = exe->executable->manifest();
  const FunctionInfo *info = manifest.find(function);
  if (!info) {
    std::string names;
    for (const FunctionInfo &f : manifest.functions)
      names += (names.empty() ? "" : ", ") + f.signature.name;
    return fail("the artifact has no function '" + std::string(function) +
                "' (it has: " + (names.empty() ? "none" : names) + ")");
  }
  const Signature &signature = info->signature;
  size_t want = signature.inputs.size() + signature.outputs.size();
  if (nargs < 0 || size_t(nargs) != want)
    return fail("'" + signature.name + "' takes " + std::to_string(want) +
                " buffers (" + std::to_string(signature.inputs.size()) +
                " inputs, then " + std::to_string(signature.outputs.size()) +
                " outputs), " + std::to_string(nargs) + " given");
  std::vector<void *> pointers(args, args + nargs);
  for (size_t i = 0; i < pointers.size(); ++i)
    if (!pointers[i] && (i < signature.inputs.size()
                             ? signature.inputs[i]
                             : signature.outputs[i - signature.inputs.size()])
                                .bytes() > 0)
      return fail("'" + signature.name + "': buffer #" + std::to_string(i) +
                  " is null");
  Status s = exe->device->launch(*exe->executable, signature, pointers, stream);
  return s.ok() ? STRATA_OK : fail(s);
}

extern "C" int strata_synchronize(strata_executable *exe) {
  if (!exe)
    return fail("strata_synchronize: null executable");
  Status s = exe->device->synchronize();
  return s.ok() ? STRATA_OK : fail(s);
}
