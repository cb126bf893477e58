//===- strata-compile.cpp - Compile a program for a chip ------------------===//
//
//   strata-compile IN.mlir --target=NAME|FILE.json|host [-o OUT]
//                  [--emit=mlir|lowered|llvm|obj|lib]
//
// Runs the core stages and the target's plugin and writes the artifact.
// Stops after the stage --emit names. A failure leaves no output file.
// IN "-" reads stdin. Exit status 0, or 1 on any error (docs/tools.md).
//
//===----------------------------------------------------------------------===//
#include "ProgramOptions.h"
#include "ToolSupport.h"

#include "strata/Pipeline/Compiler.h"
#include "strata/Runtime/Manifest.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <spdlog/spdlog.h>

using namespace strata;
namespace cl = llvm::cl;

using tool::inputFile;
using tool::target;

static cl::opt<std::string>
    outputFile("o",
               cl::desc("Output file; '-' is stdout (not for lib). Default: "
                        "the input's name with the kind's extension "
                        "(.mapped.mlir, .lowered.mlir, .ll, .o, .so), "
                        "stdin.<ext> for stdin"),
               cl::value_desc("path"), cl::cat(tool::strataCategory()));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Stop after: mlir (mapped IR), lowered (target "
                  "dialect), llvm, obj or lib (default: lib)"),
         cl::value_desc("kind"), cl::init("lib"),
         cl::cat(tool::strataCategory()));

static cl::extrahelp
    exitStatusHelp("Exit status: 0 success, 1 error (docs/tools.md).\n");

/// The default output name: IN with the extension of the emitted kind.
static std::string defaultOutput(EmitKind kind) {
  static const char *extensions[] = {".mapped.mlir", ".lowered.mlir", ".ll",
                                     ".o", ".so"};
  // Stdin has no name and no folder: "stdin" in the current folder. Not
  // stdout: a library cannot go there, and every kind should land alike.
  std::string base = inputFile == "-" ? std::string("stdin") : inputFile;
  size_t dot = base.rfind('.');
  size_t slash = base.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
    base.resize(dot);
  return base + extensions[static_cast<int>(kind)];
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!tool::initialize(argc, argv,
                        "Strata compiler: program + chip -> artifact "
                        "(<input.mlir> '-' reads stdin)\n"))
    return tool::kExitError;
  std::optional<EmitKind> kind = parseEmitKind(emit);
  if (!kind) {
    tool::error("--emit: unknown stage '" + emit +
                "'; expected mlir, lowered, llvm, obj or lib");
    return tool::kExitError;
  }
  std::optional<hw::Description> chip = tool::resolveTarget(target);
  if (!chip)
    return tool::kExitError;
  const TargetPlugin &plugin = tool::pluginFor(*chip);
  spdlog::info("target {} (plugin {}, arch {})", chip->name, chip->plugin,
               chip->arch);
  std::string output = outputFile.empty() ? defaultOutput(*kind) : outputFile;
  if (output == "-" && *kind == EmitKind::Library) {
    tool::error("-o -: a library cannot be written to stdout; expected a "
                "file name");
    return tool::kExitError;
  }

  std::unique_ptr<tool::ProgramFile> file = tool::readProgram(inputFile);
  if (!file)
    return tool::kExitError;
  mlir::OwningOpRef<mlir::ModuleOp> &module = file->module;
  // A library carries its manifest (signatures, work, tolerances): what
  // the runtime needs to call it without the compiler.
  std::optional<rt::Manifest> manifest;
  if (*kind == EmitKind::Library)
    manifest = describeProgram(*module, *chip);
  if (mlir::failed(runCoreStages(*module, *chip, tool::applyPassManagerOptions,
                                 tool::coreOptions())))
    return tool::kExitError;
  if (manifest)
    attachManifest(std::move(*manifest), *module, *chip);
  auto write = [&](llvm::Error err) {
    if (!err)
      return tool::kExitSuccess;
    tool::error(llvm::toString(std::move(err)));
    return tool::kExitError;
  };
  if (*kind == EmitKind::Mapped)
    return write(writeModule(*module, output));
  if (mlir::failed(runPluginLowering(*module, plugin, *chip,
                                     tool::applyPassManagerOptions)))
    return tool::kExitError;
  if (*kind == EmitKind::Lowered)
    return write(writeModule(*module, output));
  int status = write(plugin.writeArtifact(*module, *chip, *kind, output));
  if (status == tool::kExitSuccess)
    spdlog::info("wrote {} ({})", output, emitKindName(*kind).str());
  return status;
}
