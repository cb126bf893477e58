//===- ProgramOptions.h - The program and chip options ----------*- C++ -*-===//
//
// What strata-compile and strata-run both take: the input program and the
// chip. Not in StrataToolSupport, whose other users (strata-hw) take no
// program: a library's options are registered in every tool linking it.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TOOLS_PROGRAMOPTIONS_H
#define STRATA_TOOLS_PROGRAMOPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace strata::tool {

/// The program: an MLIR file, "-" for stdin.
extern llvm::cl::opt<std::string> inputFile;
/// --target: a shipped description's name, a .json file, or "host".
extern llvm::cl::opt<std::string> target;

} // namespace strata::tool

#endif // STRATA_TOOLS_PROGRAMOPTIONS_H
