//===- ToolSupport.h - What every strata-* tool does first ------*- C++ -*-===//
#ifndef STRATA_TOOLS_TOOLSUPPORT_H
#define STRATA_TOOLS_TOOLSUPPORT_H

#include "CommandLine.h"
#include "ExitStatus.h"

#include "strata/HW/Description.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

namespace strata::tool {

/// What a tool does with programs, which decides the options it lists.
enum class ToolKind {
  /// Compiles programs: --schedule, --no-fuse and --allow-tf32 apply.
  Compiler,
  /// Reads descriptions only: those options are hidden (and ignored).
  Descriptions,
};

/// Registers the MLIR command-line options (-mlir-timing, ...), Strata's
/// common ones (--log-level, --load-plugin) and the --version printer,
/// hides LLVM's options from --help, parses the command line, sets up
/// logging and the target registry. Returns false after printing an error.
bool initialize(int argc, char **argv, llvm::StringRef overview,
                ToolKind kind = ToolKind::Compiler);

/// Prints "<tool>: error: <message>" to stderr.
void error(llvm::StringRef message);

/// How messages name an input file: "<stdin>" for "-".
std::string inputName(llvm::StringRef path);

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
