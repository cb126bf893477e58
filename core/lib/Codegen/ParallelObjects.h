//===- ParallelObjects.h - Objects of a module on threads -------*- C++ -*-===//
#ifndef STRATA_CODEGEN_PARALLELOBJECTS_H
#define STRATA_CODEGEN_PARALLELOBJECTS_H

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace strata {

/// How many parts code generation of `module` is split into: one per usable
/// core, at most one per defined function, and 1 for modules too small to
/// gain (the split costs a bitcode round trip per part).
unsigned codegenParts(const llvm::Module &module);

/// Writes `module` (optimized already) as `parts` object files, each
/// generated on a thread of its own with a context and a target machine of
/// its own (`makeTargetMachine`), and returns their paths (temporary files
/// the caller removes). Functions are dealt to the parts in turn; internal
/// symbols become hidden ones, so that the parts link into one library.
llvm::Expected<std::vector<std::string>> emitObjectsInParallel(
    llvm::Module &module, unsigned parts,
    const std::function<std::unique_ptr<llvm::TargetMachine>()>
        &makeTargetMachine,
    const std::function<llvm::Error(llvm::Module &, llvm::TargetMachine &,
                                    llvm::StringRef)> &emitObject);

} // namespace strata

#endif // STRATA_CODEGEN_PARALLELOBJECTS_H
