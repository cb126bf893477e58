//===- BundleFuzzer.cpp - libFuzzer target of the bundle loader -----------===//
//
// Any bytes given to the runtime as an NVIDIA bundle must give a bundle or
// an error, never a crash: parsing, the manifest, the launch plans' indices,
// and the tensor maps' encodings (what the device computes before calling
// the driver).
//
//===----------------------------------------------------------------------===//
#include "BundleFormat.h"
#include "TensorMapEncoding.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace strata;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  (void)nvidia::looksLikeBundle(text);
  auto bundle = nvidia::Bundle::parse(text, "fuzz.json");
  if (!bundle.ok())
    return 0;
  for (const nvidia::FunctionPlan &f : bundle->functions)
    for (const nvidia::LaunchStep &s : f.steps)
      for (const nvidia::KernelArg &a : s.args)
        if (a.tensorMap)
          (void)nvidia::tiledEncoding(*a.tensorMap);
  (void)bundle->serialize();
  return 0;
}
