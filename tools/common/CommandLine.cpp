//===- CommandLine.cpp - --help and --version of the strata-* tools -------===//
#include "CommandLine.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/PrettyStackTrace.h"

using namespace llvm;

#ifndef STRATA_VERSION
#error "STRATA_VERSION (the CMake project's version) must be defined"
#endif

cl::OptionCategory &strata::tool::strataCategory() {
  // A function-local static: the tools' option globals name it during
  // static initialization, in whatever order their files are initialized.
  static cl::OptionCategory category("Strata options");
  return category;
}

bool strata::tool::inCategory(const cl::Option &option,
                              const cl::OptionCategory &category) {
  return llvm::is_contained(option.Categories, &category);
}

/// LLVM's generic options (--help, --help-hidden, --version, ...). Their
/// category has no accessor; its name is part of --help's output.
static bool isGeneric(const cl::Option &option) {
  return llvm::any_of(option.Categories, [](const cl::OptionCategory *c) {
    return c->getName() == "Generic Options";
  });
}

void strata::tool::hideOptionsExcept(
    function_ref<bool(const cl::Option &)> keep) {
  // An option registered under several names is met once per name; the
  // second time it is already hidden.
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    if (option->getOptionHiddenFlag() != cl::NotHidden || isGeneric(*option) ||
        keep(*option))
      continue;
    option->setHiddenFlag(cl::Hidden);
  }
}

void strata::tool::setVersionPrinter(
    StringRef tool, std::function<void(raw_ostream &)> printTargets) {
  // The printer outlives this call: it runs while the command line is
  // parsed, then the process exits.
  static std::string name;
  static std::function<void(raw_ostream &)> targets;
  name = tool.str();
  targets = std::move(printTargets);
  // A crash names Strata, not LLVM's issue tracker. (A program that
  // strata-mlir-runner runs and that aborts itself, on a failed cf.assert,
  // prints this too: its own message comes first.)
  static std::string bugReport;
  bugReport = "Strata: " + name +
              " stopped on a signal; the stack dump below says where. "
              "Report it with the input and the command line.\n";
  llvm::setBugReportMsg(bugReport.c_str());
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << name << " (Strata) " << STRATA_VERSION << "\n"
       << "  LLVM version " << LLVM_VERSION_STRING << "\n";
    if (targets)
      targets(os);
  });
}

void strata::tool::printTargetList(raw_ostream &os, StringRef heading,
                                   ArrayRef<std::string> names) {
  os << "  " << heading << ": ";
  if (names.empty())
    os << "none";
  llvm::interleaveComma(names, os);
  os << "\n";
}
