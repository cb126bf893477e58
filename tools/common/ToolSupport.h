//===- ToolSupport.h - What every strata-* tool does first ------*- C++ -*-===//
#ifndef STRATA_TOOLS_TOOLSUPPORT_H
#define STRATA_TOOLS_TOOLSUPPORT_H

#include "strata/HW/Description.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

namespace strata::tool {

/// Registers the MLIR command-line options (-mlir-timing, ...) and Strata's
/// common ones (--log-level, --load-plugin), parses the command line, sets
/// up logging and the target registry. Returns false after printing an error.
bool initialize(int argc, char **argv, llvm::StringRef overview);

/// Prints "<tool>: error: <message>" to stderr.
void error(llvm::StringRef message);

/// The core stages' options from the command line (--schedule).
CoreOptions coreOptions();

/// Resolves --target; prints every error and returns nullopt on failure.
std::optional<hw::Description> resolveTarget(llvm::StringRef target);

/// The plugin a description names (always registered after resolveTarget).
const TargetPlugin &pluginFor(const hw::Description &chip);

/// Applies the MLIR pass-manager options of the command line to `pm`.
mlir::LogicalResult applyPassManagerOptions(mlir::PassManager &pm);

} // namespace strata::tool

#endif // STRATA_TOOLS_TOOLSUPPORT_H
