//===- BundleFormat.h - The nvidia plugin's artifact, as data ---*- C++ -*-===//
//
// A bundle is one JSON file: the chip and arch, the PTX of the program's
// kernels (one module), its cubin (base64, when ptxas was found; the driver
// JIT-compiles the PTX otherwise) with ptxas's resource usage, the
// artifact's manifest, and for every host function its launch sequence:
// temporaries to allocate, then kernels with grid, block, dynamic shared
// bytes and arguments (each a function buffer in signature order or a
// temporary, passed as one device pointer, or a TMA tensor map over one,
// passed by value). No LLVM here: the runtime reads bundles.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_NVIDIA_BUNDLEFORMAT_H
#define STRATA_NVIDIA_BUNDLEFORMAT_H

#include "strata/rt/Manifest.h"
#include "strata/rt/Status.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace strata::nvidia {

/// A TMA tensor map (CUtensorMap) over a buffer or temporary, encoded by
/// the runtime at launch time and passed by value (128 bytes). Extents are
/// outermost first, as in MLIR; the driver takes them innermost first.
struct TensorMapInfo {
  std::string elementType;      ///< "f16", "bf16", "f32", ...
  std::vector<int64_t> dims;    ///< the array's extents
  std::vector<int64_t> strides; ///< bytes from one index of a dim to the next
  std::vector<int64_t> box;     ///< the extents of one copy
  int64_t swizzleBytes = 0;     ///< 0, 32, 64 or 128
  int64_t l2PromotionBytes = 0; ///< 0, 64, 128 or 256
};

struct KernelArg {
  bool temporary = false; ///< else a buffer of the function's signature
  int64_t index = 0;
  /// A tensor map over that buffer instead of its device pointer.
  std::optional<TensorMapInfo> tensorMap;
};

struct LaunchStep {
  std::string kernel;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t sharedBytes = 0;
  std::vector<KernelArg> args;
};

struct FunctionPlan {
  std::string name;
  int64_t arguments = 0;            ///< buffers in the signature
  std::vector<int64_t> temporaries; ///< bytes of each temporary
  std::vector<LaunchStep> steps;
};

struct Bundle {
  std::string chip, arch, ptx, cubin, ptxasLog;
  std::vector<FunctionPlan> functions;
  std::optional<rt::Manifest> manifest;

  nlohmann::json toJson() const;
  /// The file's text: toJson() with "format" first, so that the kind of a
  /// file is told from its first bytes.
  std::string serialize() const;
  /// Parses and validates a bundle; errors name `source` and what is wrong.
  static rt::Result<Bundle> fromJson(const nlohmann::json &doc,
                                     const std::string &source = "bundle");
  static rt::Result<Bundle> parse(const std::string &text,
                                  const std::string &source);
  const FunctionPlan *find(const std::string &name) const;
};

/// Whether a file starting with `head` is a bundle.
bool looksLikeBundle(const std::string &head);

std::string encodeBase64(const std::string &bytes);
/// nullopt when `text` is not base64.
std::optional<std::string> decodeBase64(const std::string &text);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_BUNDLEFORMAT_H
