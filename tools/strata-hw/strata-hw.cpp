//===- strata-hw.cpp - List, inspect and validate descriptions ------------===//
//
//   strata-hw list                 shipped descriptions and plugins
//   strata-hw info NAME|FILE|host  the derived model of a chip
//   strata-hw validate FILE...     "valid" and a summary, or every error
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"

#include "strata/HW/Model.h"
#include "strata/Target/TargetRegistry.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace strata;
namespace cl = llvm::cl;

static cl::opt<std::string>
    command(cl::Positional, cl::desc("<list|info|validate>"), cl::Required);
static cl::list<std::string> operands(cl::Positional,
                                      cl::desc("[NAME|FILE...]"));

static int list() {
  TargetRegistry &registry = TargetRegistry::get();
  llvm::outs() << "Shipped descriptions:\n";
  for (const std::string &name : hw::shippedDescriptionNames()) {
    hw::LoadResult result = registry.resolve(name, /*requirePlugin=*/false);
    if (!result) {
      llvm::outs() << llvm::formatv("  {0,-22} INVALID\n", name);
      continue;
    }
    const hw::Description &chip = *result.description;
    bool built = registry.lookup(chip.plugin) != nullptr;
    llvm::outs() << llvm::formatv(
        "  {0,-22} plugin {1,-8}{2} arch {3,-10} {4}\n", name, chip.plugin,
        built ? " " : "*", chip.arch, chip.summary);
  }
  llvm::outs() << "  host                   the machine this runs on "
                  "(detected)\n(* plugin not built into these tools: the "
                  "description can be inspected, not compiled for)\n"
                  "Target plugins:\n";
  for (const TargetPlugin *plugin : registry.plugins())
    llvm::outs() << llvm::formatv("  {0,-22} {1}\n", plugin->getName(),
                                  plugin->getSummary());
  return 0;
}

static int info() {
  if (operands.size() != 1) {
    tool::error("info: expected one description name, .json file or 'host'");
    return 1;
  }
  // Inspecting a description does not need its plugin to be built.
  hw::LoadResult result =
      TargetRegistry::get().resolve(operands[0], /*requirePlugin=*/false);
  if (!result) {
    llvm::errs() << result.formatErrors();
    tool::error("info: no usable hardware description '" + operands[0] + "'");
    return 1;
  }
  const hw::Description &chip = *result.description;
  llvm::outs() << hw::formatModel(chip, hw::deriveModel(chip));
  if (!TargetRegistry::get().lookup(chip.plugin))
    llvm::outs() << "note: plugin '" << chip.plugin
                 << "' is not built into this Strata\n";
  return 0;
}

static int validate() {
  if (operands.empty()) {
    tool::error("validate: expected one or more .json files");
    return 1;
  }
  int status = 0;
  for (const std::string &path : operands) {
    hw::LoadResult result = TargetRegistry::get().resolve(path);
    if (!result) {
      llvm::errs() << result.formatErrors();
      llvm::outs() << path << ": invalid (" << result.errors.size()
                   << (result.errors.size() == 1 ? " error" : " errors")
                   << ")\n";
      status = 1;
      continue;
    }
    std::string summary = hw::formatSummary(*result.description);
    if (!summary.empty() && summary.back() != '\n')
      summary += '\n';
    llvm::outs() << path << ": valid\n" << summary;
  }
  return status;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!tool::initialize(argc, argv, "Strata hardware descriptions\n"))
    return 1;
  if (command == "list")
    return list();
  if (command == "info")
    return info();
  if (command == "validate")
    return validate();
  tool::error("unknown command '" + command +
              "'; expected list, info or validate");
  return 1;
}
