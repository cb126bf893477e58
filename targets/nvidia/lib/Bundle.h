//===- Bundle.h - Writing the nvidia plugin's artifact ----------*- C++ -*-===//
//
// The launch plans of a lowered module, its PTX, and the bundle file
// (BundleFormat.h: the format, shared with the runtime).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_NVIDIA_BUNDLE_H
#define STRATA_NVIDIA_BUNDLE_H

#include "BundleFormat.h"

#include "strata/HW/Description.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace strata::nvidia {

/// The PTX ISA version the plugin asks LLVM for on `arch` (e.g. 80).
unsigned ptxVersion(llvm::StringRef arch);

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
