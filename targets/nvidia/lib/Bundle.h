//===- Bundle.h - The nvidia plugin's artifact ------------------*- C++ -*-===//
//
// A bundle is one JSON file: the chip and arch, the PTX of the program's
// kernels (one module), its cubin (base64, when ptxas was found; the driver
// JIT-compiles the PTX otherwise) with ptxas's resource usage, and for every
// host function its launch sequence: temporaries to allocate, then kernels
// with grid, block, dynamic shared bytes and arguments (each a function
// buffer in signature order or a temporary, passed as one device pointer,
// or a TMA tensor map over one, passed by value).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_NVIDIA_BUNDLE_H
#define STRATA_NVIDIA_BUNDLE_H

#include "strata/HW/Description.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace strata::nvidia {

/// The PTX ISA version the plugin asks LLVM for on `arch` (e.g. 80).
unsigned ptxVersion(llvm::StringRef arch);

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

  nlohmann::json toJson() const;
  static llvm::Expected<Bundle> fromJson(const nlohmann::json &doc);
  const FunctionPlan *find(llvm::StringRef name) const;
};

/// The launch sequence of every host function of `lowered` (after S5):
/// only constants, gpu.launch_func, static allocations, deallocations and
/// returns are allowed there.
llvm::Expected<std::vector<FunctionPlan>> launchPlans(mlir::ModuleOp lowered);

/// The PTX of the kernels of `lowered` (LLVM's NVPTX backend).
llvm::Expected<std::string> emitPTX(mlir::ModuleOp lowered);

/// Writes `lowered` as LLVM IR (the kernels), a cubin, or a bundle.
llvm::Error writeArtifact(mlir::ModuleOp lowered, const hw::Description &chip,
                          EmitKind kind, llvm::StringRef path);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_BUNDLE_H
