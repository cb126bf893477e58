//===- ToolSupport.h - What every strata-* tool does first ------*- C++ -*-===//
#ifndef STRATA_TOOLS_TOOLSUPPORT_H
#define STRATA_TOOLS_TOOLSUPPORT_H

#include "CommandLine.h"
#include "ExitStatus.h"

#include "strata/HW/Description.h"
#include "strata/Pipeline/Pipeline.h"
#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

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

/// A program read from a file (or stdin), with the context it lives in and
/// the handler that reports diagnostics at its file, line and column (not
/// followed by the whole module, which would bury the message).
struct ProgramFile {
  explicit ProgramFile(mlir::DialectRegistry &registry)
      : ctx(registry), diagnostics(sourceMgr, &ctx) {
    ctx.printOpOnDiagnostic(false);
  }
  mlir::MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Reads `path` ("-": stdin) with Strata's dialects registered; nullptr
/// after printing why it could not be read or parsed.
std::unique_ptr<ProgramFile> readProgram(llvm::StringRef path);

/// A temporary folder, removed with its contents when this goes.
class TempDir {
public:
  /// A fresh folder named after `prefix`; nullptr after printing why it
  /// could not be made.
  static std::unique_ptr<TempDir> create(llvm::StringRef prefix);
  ~TempDir();
  /// `name` inside the folder.
  std::string file(llvm::StringRef name) const;

private:
  llvm::SmallString<128> path;
};

/// Applies the MLIR pass-manager options of the command line to `pm`.
mlir::LogicalResult applyPassManagerOptions(mlir::PassManager &pm);

} // namespace strata::tool

#endif // STRATA_TOOLS_TOOLSUPPORT_H
