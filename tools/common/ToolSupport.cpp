//===- ToolSupport.cpp - What every strata-* tool does first --------------===//
#include "ToolSupport.h"

#include "strata/Support/Logging.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace strata;

static llvm::cl::opt<std::string>
    logLevel("log-level",
             llvm::cl::desc("trace, debug, info, warn, error or off"),
             llvm::cl::init("warn"));
static llvm::cl::list<std::string>
    loadPlugins("load-plugin",
                llvm::cl::desc("Load a target plugin shared library"));

static llvm::cl::opt<std::string> scheduleFile(
    "schedule",
    llvm::cl::desc("JSON file of schedules replacing the model's choices "
                   "(\"<function>/<n>\": {...}); see --emit=mlir"),
    llvm::cl::value_desc("FILE.json"));

static llvm::cl::opt<bool>
    noFuse("no-fuse",
           llvm::cl::desc("Run every op on its own: no fusion groups and no "
                          "fused epilogues (to measure what fusion gains)"));

static llvm::cl::opt<bool> allowTf32(
    "allow-tf32",
    llvm::cl::desc("Let f32 matrix products use tensor-float-32 matrix units "
                   "(inputs rounded to 10 mantissa bits; no effect on chips "
                   "without one)"));

static std::string toolName = "strata";

CoreOptions tool::coreOptions() {
  CoreOptions options;
  options.scheduleFile = scheduleFile;
  options.fuse = !noFuse;
  options.allowTf32 = allowTf32;
  return options;
}

void tool::error(llvm::StringRef message) {
  llvm::WithColor::error(llvm::errs(), toolName) << message << "\n";
}

bool tool::initialize(int argc, char **argv, llvm::StringRef overview) {
  toolName = llvm::sys::path::filename(argv[0]).str();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  // A linked LLVM library registers --threads (its own thread pool). Strata
  // never reads it: the host target's cores are the process's CPU affinity.
  // Asking for threads with it would be silently ignored, so it is hidden
  // and refused.
  auto &registered = llvm::cl::getRegisteredOptions();
  auto threads = registered.find("threads");
  if (threads != registered.end())
    threads->second->setHiddenFlag(llvm::cl::ReallyHidden);
  if (!llvm::cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs()))
    return false;
  if (threads != registered.end() && threads->second->getNumOccurrences()) {
    error("--threads: not a Strata option; the host target uses the cores "
          "the process may run on (e.g. taskset -c 0 for one core), a "
          "described chip its description's counts");
    return false;
  }
  if (!setupLogging(logLevel)) {
    error("--log-level: unknown level '" + logLevel +
          "'; expected trace, debug, info, warn, error or off");
    return false;
  }
  TargetRegistry &registry = TargetRegistry::get();
  registerStaticTargets(registry);
  for (const std::string &path : loadPlugins)
    if (llvm::Error err = registry.loadPluginLibrary(path)) {
      error(llvm::toString(std::move(err)));
      return false;
    }
  return true;
}

std::optional<hw::Description> tool::resolveTarget(llvm::StringRef target) {
  hw::LoadResult result = TargetRegistry::get().resolve(target);
  if (!result) {
    llvm::errs() << result.formatErrors();
    error("--target=" + target.str() + ": no usable hardware description");
    return std::nullopt;
  }
  return std::move(*result.description);
}

const TargetPlugin &tool::pluginFor(const hw::Description &chip) {
  return *TargetRegistry::get().lookup(chip.plugin);
}

mlir::LogicalResult tool::applyPassManagerOptions(mlir::PassManager &pm) {
  if (mlir::failed(mlir::applyPassManagerCLOptions(pm)))
    return mlir::failure();
  mlir::applyDefaultTimingPassManagerCLOptions(pm);
  return mlir::success();
}
