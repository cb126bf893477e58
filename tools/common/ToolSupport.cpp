//===- ToolSupport.cpp - What every strata-* tool does first --------------===//
#include "ToolSupport.h"

#include "strata/Pipeline/Compiler.h"
#include "strata/Support/Logging.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace strata;
namespace cl = llvm::cl;

static cl::opt<std::string>
    logLevel("log-level",
             cl::desc("Print log messages of this level and above to "
                      "stderr: trace, debug, info, warn, error or off "
                      "(default: warn)"),
             cl::value_desc("level"), cl::init("warn"),
             cl::cat(tool::strataCategory()));
static cl::list<std::string>
    loadPlugins("load-plugin",
                cl::desc("Load a target plugin shared library (repeatable)"),
                cl::value_desc("LIB.so"), cl::cat(tool::strataCategory()));

// The core stages' options: hidden in tools that compile nothing.
static cl::opt<std::string> scheduleFile(
    "schedule",
    cl::desc("JSON file of schedules replacing the model's choices "
             "(\"<function>/<n>\": {...}); see --emit=mlir"),
    cl::value_desc("FILE.json"), cl::cat(tool::strataCategory()));

static cl::opt<bool>
    noFuse("no-fuse",
           cl::desc("Run every op on its own: no fusion groups and no "
                    "fused epilogues (to measure what fusion gains)"),
           cl::cat(tool::strataCategory()));

static cl::opt<bool> allowTf32(
    "allow-tf32",
    cl::desc("Let f32 matrix products use tensor-float-32 matrix units "
             "(inputs rounded to 10 mantissa bits; no effect on chips "
             "without one)"),
    cl::cat(tool::strataCategory()));

static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Verify the IR after every pass (the target's lowering and the "
             "reference's verify once, at their end, by default)"),
    cl::cat(tool::strataCategory()));

// Before the tool's own help text (its exit statuses): this library's
// globals are constructed before the executable's.
static cl::extrahelp hiddenHelp(
    "\nMLIR's options (--mlir-timing, --mlir-print-ir-after-all, ...) and "
    "LLVM's: --help-hidden.\n");

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

std::string tool::inputName(llvm::StringRef path) {
  return path == "-" ? "<stdin>" : path.str();
}

/// The values of --load-plugin in `args`, whatever their place relative to
/// --version: its printer runs, then exits, while the command line is being
/// parsed, before the options after it are read.
static std::vector<std::string>
pluginArguments(llvm::ArrayRef<const char *> args) {
  std::vector<std::string> paths;
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--")
      break;
    if (!arg.consume_front("--"))
      arg.consume_front("-");
    if (arg.consume_front("load-plugin=")) {
      paths.push_back(arg.str());
    } else if (arg == "load-plugin" && i + 1 < args.size()) {
      paths.push_back(args[++i]);
    }
  }
  return paths;
}

/// --version's targets: those built in, then those --load-plugin loads.
static void printTargets(llvm::raw_ostream &os,
                         llvm::ArrayRef<const char *> args) {
  TargetRegistry &registry = TargetRegistry::get();
  std::vector<std::string> builtIn = registry.pluginNames();
  tool::printTargetList(os, "Built-in targets", builtIn);
  std::vector<std::string> loaded;
  for (const std::string &path : pluginArguments(args)) {
    // plugins() keeps the order of registration: a library's plugins come
    // after those registered before it.
    size_t before = registry.plugins().size();
    if (llvm::Error err = registry.loadPluginLibrary(path)) {
      os << "  " << llvm::toString(std::move(err)) << "\n";
      continue;
    }
    std::vector<const TargetPlugin *> plugins = registry.plugins();
    for (size_t i = before; i < plugins.size(); ++i)
      loaded.push_back(plugins[i]->getName().str() + " (" + path + ")");
  }
  if (!loaded.empty())
    tool::printTargetList(os, "Loaded targets", loaded);
}

bool tool::initialize(int argc, char **argv, llvm::StringRef overview,
                      ToolKind kind) {
  toolName = llvm::sys::path::filename(argv[0]).str();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::registerAsmPrinterCLOptions();
  // A linked LLVM library registers --threads (its own thread pool). Strata
  // never reads it: the host target's cores are the process's CPU affinity.
  // Asking for threads with it would be silently ignored, so it is hidden
  // and refused.
  auto &registered = cl::getRegisteredOptions();
  auto threads = registered.find("threads");
  if (threads != registered.end())
    threads->second->setHiddenFlag(cl::ReallyHidden);
  if (kind == ToolKind::Descriptions)
    for (cl::Option *option : {static_cast<cl::Option *>(&scheduleFile),
                               static_cast<cl::Option *>(&noFuse),
                               static_cast<cl::Option *>(&allowTf32)})
      option->setHiddenFlag(cl::Hidden);
  hideOptionsExcept([](const cl::Option &option) {
    return inCategory(option, strataCategory());
  });
  // The built-in targets are registered before parsing, for --version.
  TargetRegistry &registry = TargetRegistry::get();
  registerStaticTargets(registry);
  llvm::ArrayRef<const char *> args(argv, argc);
  setVersionPrinter(toolName,
                    [args](llvm::raw_ostream &os) { printTargets(os, args); });
  if (!cl::ParseCommandLineOptions(argc, argv, overview, &llvm::errs()))
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
  if (verifyEach)
    pm.enableVerifier(true);
  return mlir::success();
}

std::unique_ptr<strata::tool::ProgramFile>
strata::tool::readProgram(llvm::StringRef path) {
  mlir::DialectRegistry registry;
  registerStrataDialects(registry);
  auto program = std::make_unique<ProgramFile>(registry);
  std::string openError;
  program->module =
      parseInputFile(path, program->ctx, program->sourceMgr, openError);
  if (!program->module) {
    if (!openError.empty())
      error(openError);
    return nullptr;
  }
  return program;
}

std::unique_ptr<strata::tool::TempDir>
strata::tool::TempDir::create(llvm::StringRef prefix) {
  auto dir = std::unique_ptr<TempDir>(new TempDir());
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory(prefix, dir->path)) {
    error("cannot create a temporary folder: " + ec.message());
    return nullptr;
  }
  return dir;
}

strata::tool::TempDir::~TempDir() {
  if (!path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::string strata::tool::TempDir::file(llvm::StringRef name) const {
  return (path + "/" + name).str();
}
