//===- strata-mlir-runner.cpp - Run MLIR test programs like mlir-runner ---===//
//
//   strata-mlir-runner [IN.mlir] [-e main] [-entry-point-result=void]
//                      [-shared-libs=a.so,b.so] [-O0..-O3] [--target=host]
//
// Takes what mlir-runner takes for MLIR's execution tests, but compiles the
// program with Strata (its core stages and the chip's plugin, as
// strata-compile does) instead of a fixed lowering, then calls the entry
// function once. The functions those tests call by name (printMemrefF32,
// printF32, printNewline, verifyMemRefF32, rtclock, ...) come from
// libStrataRunnerUtils, Strata's own, which prints what MLIR's runner
// utilities print; so a test's CHECK lines hold for Strata's code.
//
// Transform-dialect scripts in the input (schedules for MLIR's own test
// pipelines) are dropped: Strata makes its own decisions. -shared-libs
// naming MLIR's runner utilities are not loaded (Strata's replace them);
// other libraries are, before the program. -O levels are accepted and
// ignored (Strata always optimizes). IN "-" (the default) reads stdin.
//
// Exit status (docs/tools.md): 0, 1 on an error; a program that aborts
// itself ends the tool with its signal.
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"

#include "strata/Pipeline/Compiler.h"
#include "strata/Pipeline/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>
#include <dlfcn.h>

using namespace strata;
namespace cl = llvm::cl;

static cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"),
                                  cl::init("-"),
                                  cl::cat(tool::strataCategory()));
static cl::opt<std::string>
    target("target",
           cl::desc("Chip: a shipped description's name, a .json file, or "
                    "'host' (default: host)"),
           cl::value_desc("name"), cl::init("host"),
           cl::cat(tool::strataCategory()));
static cl::opt<std::string> entry("e",
                                  cl::desc("The function to run (default: "
                                           "main); it takes no arguments"),
                                  cl::value_desc("function"), cl::init("main"),
                                  cl::cat(tool::strataCategory()));
static cl::opt<std::string> entryResult(
    "entry-point-result",
    cl::desc("What the function returns: void, i32, i64 or f32 (printed); "
             "default: void"),
    cl::value_desc("type"), cl::init("void"), cl::cat(tool::strataCategory()));
static cl::list<std::string> sharedLibs(
    "shared-libs",
    cl::desc("Libraries to load before running (comma-separated); MLIR's "
             "runner utilities are replaced by Strata's"),
    cl::value_desc("a.so,b.so"), cl::CommaSeparated,
    cl::cat(tool::strataCategory()));
static cl::opt<bool> o0("O0", cl::desc("Accepted, ignored"), cl::Hidden);
static cl::opt<bool> o1("O1", cl::desc("Accepted, ignored"), cl::Hidden);
static cl::opt<bool> o2("O2", cl::desc("Accepted, ignored"), cl::Hidden);
static cl::opt<bool> o3("O3", cl::desc("Accepted, ignored"), cl::Hidden);

static cl::extrahelp exitStatusHelp(
    "Exit status: 0 success, 1 error (docs/tools.md); a program that aborts "
    "itself (a failed cf.assert) ends the tool with its signal.\n");

namespace {

/// Drops the transform-dialect schedules of MLIR's test pipelines (named
/// sequences, top-level sequences, the module attribute that enables them).
void dropTransformScripts(mlir::ModuleOp module) {
  // Outermost transform ops only (pre-order: a script's nested ops go
  // with it; erasing them too would free them twice).
  llvm::SmallVector<mlir::Operation *> scripts;
  module->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (!llvm::isa_and_nonnull<mlir::transform::TransformDialect>(
            op->getDialect()))
      return mlir::WalkResult::advance();
    scripts.push_back(op);
    return mlir::WalkResult::skip();
  });
  for (mlir::Operation *op : scripts)
    op->erase();
  module->removeAttr("transform.with_named_sequence");
  // A nested module that held only a script (its own module beside the
  // program's functions) goes with it.
  llvm::SmallVector<mlir::ModuleOp> emptied;
  module.walk([&](mlir::ModuleOp nested) {
    if (nested != module && nested.getBody()->empty())
      emptied.push_back(nested);
  });
  for (mlir::ModuleOp nested : emptied)
    nested->erase();
}

/// MLIR's runner utilities, which libStrataRunnerUtils replaces.
bool isMlirRunnerUtils(llvm::StringRef path) {
  llvm::StringRef name = llvm::sys::path::filename(path);
  return name.contains("mlir_runner_utils") ||
         name.contains("mlir_c_runner_utils");
}

/// Loads libStrataRunnerUtils (beside the tool: ../lib) and the other
/// -shared-libs into the global scope the program's symbols resolve in.
bool loadRuntimeLibraries(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&loadRuntimeLibraries));
  llvm::SmallString<256> utils(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(utils, "lib", "libStrataRunnerUtils.so");
  std::vector<std::string> libraries = {std::string(utils)};
  for (const std::string &lib : sharedLibs)
    if (!isMlirRunnerUtils(lib))
      libraries.push_back(lib);
  for (const std::string &lib : libraries)
    if (!dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      tool::error("cannot load '" + lib + "': " + dlerror());
      return false;
    }
  return true;
}

/// Symbol of the function the runner calls: the entry itself when it
/// returns nothing; otherwise a wrapper that calls it and passes the result
/// to libStrataRunnerUtils' _strata_runner_result_<type>, which prints it
/// as mlir-runner does. (Public functions return no scalars after Strata's
/// lowering, whose results become output arguments; a private one may.)
std::string wrapEntry(mlir::ModuleOp module, mlir::func::FuncOp func) {
  if (func.getNumResults() == 0)
    return func.getSymName().str();
  mlir::Location loc = func.getLoc();
  mlir::OpBuilder b(module.getContext());
  b.setInsertionPointToEnd(module.getBody());
  auto print = mlir::func::FuncOp::create(
      b, loc, "_strata_runner_result_" + entryResult.getValue(),
      b.getFunctionType(func.getResultTypes(), {}));
  print.setPrivate();
  auto wrapper = mlir::func::FuncOp::create(b, loc, "_strata_runner_entry",
                                            b.getFunctionType({}, {}));
  b.setInsertionPointToStart(wrapper.addEntryBlock());
  auto call = mlir::func::CallOp::create(b, loc, func, mlir::ValueRange{});
  mlir::func::CallOp::create(b, loc, print, call.getResults());
  mlir::func::ReturnOp::create(b, loc);
  func.setPrivate();
  return wrapper.getSymName().str();
}

/// Checks that `func` can be called with no arguments and returns what
/// -entry-point-result says.
bool checkEntry(mlir::func::FuncOp func) {
  mlir::FunctionType type = func.getFunctionType();
  if (type.getNumInputs() != 0) {
    func.emitError() << "-e " << entry.getValue()
                     << ": the entry function takes no arguments; it takes "
                     << type.getNumInputs();
    return false;
  }
  mlir::MLIRContext *ctx = func.getContext();
  mlir::Type expected;
  if (entryResult == "i32")
    expected = mlir::IntegerType::get(ctx, 32);
  else if (entryResult == "i64")
    expected = mlir::IntegerType::get(ctx, 64);
  else if (entryResult == "f32")
    expected = mlir::Float32Type::get(ctx);
  else if (entryResult != "void") {
    tool::error("-entry-point-result: unknown type '" + entryResult +
                "'; expected void, i32, i64 or f32");
    return false;
  }
  bool matches = expected ? type.getResults() == llvm::ArrayRef(expected)
                          : type.getNumResults() == 0;
  if (!matches) {
    func.emitError() << "-e " << entry.getValue() << ": returns " << type
                     << ", but -entry-point-result=" << entryResult.getValue();
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!tool::initialize(argc, argv,
                        "Strata's mlir-runner: compile an MLIR test program "
                        "with Strata and run its entry function "
                        "(<input.mlir> '-' reads stdin)\n"))
    return tool::kExitError;
  std::optional<hw::Description> chip = tool::resolveTarget(target);
  if (!chip)
    return tool::kExitError;
  const TargetPlugin &plugin = tool::pluginFor(*chip);
  // The program calls the runner utilities in this process: only a plugin
  // whose code runs on this machine's CPU (one that can describe it) fits.
  if (!plugin.describeHost()) {
    tool::error("--target=" + target + ": the '" + plugin.getName().str() +
                "' plugin's code does not run in this process; the test "
                "programs call the runner utilities on the CPU (use "
                "--target=host or another CPU description)");
    return tool::kExitError;
  }

  std::unique_ptr<tool::ProgramFile> file = tool::readProgram(input);
  if (!file)
    return tool::kExitError;
  mlir::OwningOpRef<mlir::ModuleOp> &module = file->module;
  dropTransformScripts(*module);
  auto func = module->lookupSymbol<mlir::func::FuncOp>(entry);
  if (!func || func.isExternal()) {
    tool::error("-e: '" + tool::inputName(input) +
                "' has no function with a body named '" + entry + "'");
    return tool::kExitError;
  }
  if (!checkEntry(func))
    return tool::kExitError;
  // Only the entry is called from outside: the other functions become
  // private, so that the interface rules of public functions (results as
  // output arguments) do not apply to functions no caller outside sees.
  for (auto other : module->getOps<mlir::func::FuncOp>())
    if (other != func && !other.isExternal())
      other.setPrivate();
  std::string entrySymbol = wrapEntry(*module, func);

  std::unique_ptr<tool::TempDir> temp =
      tool::TempDir::create("strata-mlir-runner");
  if (!temp)
    return tool::kExitError;
  std::string artifact = temp->file("program.so");
  if (mlir::failed(runCoreStages(*module, *chip, tool::applyPassManagerOptions,
                                 tool::coreOptions())) ||
      mlir::failed(runPluginLowering(*module, plugin, *chip,
                                     tool::applyPassManagerOptions)))
    return tool::kExitError;
  if (llvm::Error err =
          plugin.writeArtifact(*module, *chip, EmitKind::Library, artifact)) {
    tool::error(llvm::toString(std::move(err)));
    return tool::kExitError;
  }

  if (!loadRuntimeLibraries(argv[0]))
    return tool::kExitError;
  void *program = dlopen(artifact.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!program) {
    tool::error("cannot load the compiled program: " + std::string(dlerror()));
    return tool::kExitError;
  }
  void *symbol = dlsym(program, entrySymbol.c_str());
  if (!symbol) {
    tool::error("the compiled program has no symbol '" + entrySymbol + "'");
    return tool::kExitError;
  }
  // Line-buffered: a failed cf.assert prints its message with puts and
  // aborts, which would lose a fully buffered stdout (a pipe's).
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  reinterpret_cast<void (*)()>(symbol)();
  std::fflush(stdout);
  return tool::kExitSuccess;
}
