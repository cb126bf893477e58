//===- CommandLine.h - --help and --version of the strata-* tools -*- C++ -*-=//
//
// The tools link LLVM, whose libraries register hundreds of options of their
// own (backends, codegen). --help lists the tool's options and LLVM's generic
// ones (--help, --version, ...); the others are hidden, still accepted and
// listed by --help-hidden. --version names Strata's and LLVM's versions and
// the targets the tool can use.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TOOLS_COMMANDLINE_H
#define STRATA_TOOLS_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace strata::tool {

/// The category of Strata's options: the ones --help lists.
llvm::cl::OptionCategory &strataCategory();

/// Whether `option` is in `category`.
bool inCategory(const llvm::cl::Option &option,
                const llvm::cl::OptionCategory &category);

/// Hides from --help every registered option that `keep` rejects, except
/// LLVM's generic ones. Hidden options still parse and --help-hidden lists
/// them (unlike llvm::cl::HideUnrelatedOptions, which makes them
/// ReallyHidden).
void hideOptionsExcept(llvm::function_ref<bool(const llvm::cl::Option &)> keep);

/// Makes --version print "<tool> (Strata) <version>", LLVM's version, then
/// what `printTargets` writes (the targets the tool can use).
void setVersionPrinter(llvm::StringRef tool,
                       std::function<void(llvm::raw_ostream &)> printTargets);

/// Writes one --version line: "  <heading>: a, b, c" ("none" when empty).
void printTargetList(llvm::raw_ostream &os, llvm::StringRef heading,
                     llvm::ArrayRef<std::string> names);

} // namespace strata::tool

#endif // STRATA_TOOLS_COMMANDLINE_H
