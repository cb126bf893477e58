//===- strata-compile.cpp - Compile a program for a chip ------------------===//
//
//   strata-compile IN.mlir --target=NAME|FILE.json|host [-o OUT]
//                  [--emit=mlir|lowered|llvm|obj|lib]
//
// Runs the core stages and the target's plugin and writes the artifact.
// Stops after the stage --emit names. A failure leaves no output file.
//
//===----------------------------------------------------------------------===//
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

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::Required);
static cl::opt<std::string> target("target",
                                   cl::desc("Chip: description name, .json "
                                            "file, or 'host'"),
                                   cl::init("host"));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("path"));
static cl::opt<std::string>
    emit("emit",
         cl::desc("Stop after: mlir (mapped IR), lowered (target "
                  "dialect), llvm, obj or lib (default)"),
         cl::init("lib"));

/// The default output name: IN with the extension of the emitted kind.
static std::string defaultOutput(EmitKind kind) {
  static const char *extensions[] = {".mapped.mlir", ".lowered.mlir", ".ll",
                                     ".o", ".so"};
  std::string base = inputFile;
  size_t dot = base.rfind('.');
  size_t slash = base.rfind('/');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
    base.resize(dot);
  return base + extensions[static_cast<int>(kind)];
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!tool::initialize(argc, argv,
                        "Strata compiler: program + chip -> "
                        "artifact\n"))
    return 1;
  std::optional<EmitKind> kind = parseEmitKind(emit);
  if (!kind) {
    tool::error("--emit: unknown stage '" + emit +
                "'; expected mlir, lowered, llvm, obj or lib");
    return 1;
  }
  std::optional<hw::Description> chip = tool::resolveTarget(target);
  if (!chip)
    return 1;
  const TargetPlugin &plugin = tool::pluginFor(*chip);
  spdlog::info("target {} (plugin {}, arch {})", chip->name, chip->plugin,
               chip->arch);
  std::string output = outputFile.empty() ? defaultOutput(*kind) : outputFile;
  if (output == "-" && *kind == EmitKind::Library) {
    tool::error("-o -: a library cannot be written to stdout; expected a "
                "file name");
    return 1;
  }

  mlir::DialectRegistry registry;
  registerStrataDialects(registry);
  mlir::MLIRContext ctx(registry);
  // Errors point at the input's file, line and column; the whole module
  // printed after an error on it would bury the message.
  ctx.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &ctx);

  std::string openError;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      parseInputFile(inputFile, ctx, sourceMgr, openError);
  if (!module) {
    if (!openError.empty())
      tool::error(openError);
    return 1;
  }
  // A library carries its manifest (signatures, work, tolerances): what
  // the runtime needs to call it without the compiler.
  std::optional<rt::Manifest> manifest;
  if (*kind == EmitKind::Library)
    manifest = describeProgram(*module, *chip);
  if (mlir::failed(runCoreStages(*module, *chip, tool::applyPassManagerOptions,
                                 tool::coreOptions())))
    return 1;
  if (manifest)
    attachManifest(std::move(*manifest), *module, *chip);
  auto write = [&](llvm::Error err) {
    if (!err)
      return 0;
    tool::error(llvm::toString(std::move(err)));
    return 1;
  };
  if (*kind == EmitKind::Mapped)
    return write(writeModule(*module, output));
  if (mlir::failed(runPluginLowering(*module, plugin, *chip,
                                     tool::applyPassManagerOptions)))
    return 1;
  if (*kind == EmitKind::Lowered)
    return write(writeModule(*module, output));
  int status = write(plugin.writeArtifact(*module, *chip, *kind, output));
  if (status == 0)
    spdlog::info("wrote {} ({})", output, emitKindName(*kind).str());
  return status;
}
