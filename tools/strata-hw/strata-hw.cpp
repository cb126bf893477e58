//===- strata-hw.cpp - List, inspect and validate descriptions ------------===//
//
//   strata-hw list                 shipped descriptions and plugins
//   strata-hw info NAME|FILE|host  the derived model of a chip
//   strata-hw validate FILE...     "valid" and a summary, or every error
//
// A FILE "-" reads stdin. Exit status 0, or 1 on any error or invalid
// description (docs/tools.md).
//
//===----------------------------------------------------------------------===//
#include "ToolSupport.h"

#include "strata/HW/Model.h"
#include "strata/Target/TargetRegistry.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace strata;
namespace cl = llvm::cl;

static cl::opt<std::string> command(cl::Positional,
                                    cl::desc("<list|info|validate>"),
                                    cl::Required,
                                    cl::cat(tool::strataCategory()));
static cl::list<std::string> operands(cl::Positional,
                                      cl::desc("[NAME|FILE...]"),
                                      cl::cat(tool::strataCategory()));

/// Loads a description named on the command line; "-" reads it from stdin.
static hw::LoadResult load(llvm::StringRef operand, bool requirePlugin) {
  TargetRegistry &registry = TargetRegistry::get();
  if (operand != "-")
    return registry.resolve(operand, requirePlugin);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> text =
      llvm::MemoryBuffer::getSTDIN();
  if (!text) {
    hw::LoadResult result;
    result.sourceName = "<stdin>";
    result.errors.push_back(
        {"", "cannot read stdin: " + text.getError().message()});
    return result;
  }
  return registry.validateText((*text)->getBuffer(), "<stdin>", requirePlugin);
}

static cl::extrahelp
    exitStatusHelp("Exit status: 0 success, 1 error or invalid description "
                   "(docs/tools.md).\n");

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
  return tool::kExitSuccess;
}

static int info() {
  if (operands.size() != 1) {
    tool::error("info: expected one description name, .json file or 'host'");
    return tool::kExitError;
  }
  // Inspecting a description does not need its plugin to be built.
  hw::LoadResult result = load(operands[0], /*requirePlugin=*/false);
  if (!result) {
    llvm::errs() << result.formatErrors();
    tool::error("info: no usable hardware description '" +
                tool::inputName(operands[0]) + "'");
    return tool::kExitError;
  }
  const hw::Description &chip = *result.description;
  llvm::outs() << hw::formatModel(chip, hw::deriveModel(chip));
  if (!TargetRegistry::get().lookup(chip.plugin))
    llvm::outs() << "note: plugin '" << chip.plugin
                 << "' is not built into this Strata\n";
  return tool::kExitSuccess;
}

static int validate() {
  if (operands.empty()) {
    tool::error("validate: expected one or more .json files");
    return tool::kExitError;
  }
  int status = tool::kExitSuccess;
  for (const std::string &operand : operands) {
    hw::LoadResult result = load(operand, /*requirePlugin=*/true);
    std::string path = tool::inputName(operand);
    if (!result) {
      llvm::errs() << result.formatErrors();
      llvm::outs() << path << ": invalid (" << result.errors.size()
                   << (result.errors.size() == 1 ? " error" : " errors")
                   << ")\n";
      status = tool::kExitError;
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
  if (!tool::initialize(argc, argv,
                        "Strata hardware descriptions: list, info "
                        "NAME|FILE|host|-, validate FILE...|-\n",
                        tool::ToolKind::Descriptions))
    return tool::kExitError;
  if (command == "list")
    return list();
  if (command == "info")
    return info();
  if (command == "validate")
    return validate();
  tool::error("unknown command '" + command +
              "'; expected list, info or validate");
  return tool::kExitError;
}
