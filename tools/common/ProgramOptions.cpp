//===- ProgramOptions.cpp - The program and chip options ------------------===//
#include "ProgramOptions.h"

#include "CommandLine.h"

namespace cl = llvm::cl;

cl::opt<std::string> strata::tool::inputFile(cl::Positional,
                                             cl::desc("<input.mlir>"),
                                             cl::Required,
                                             cl::cat(strataCategory()));

cl::opt<std::string> strata::tool::target(
    "target",
    cl::desc("Chip: a shipped description's name, a .json file, or 'host' "
             "(default: host)"),
    cl::value_desc("name"), cl::init("host"), cl::cat(strataCategory()));
