//===- CInterface.h - The exported names of a host library ------*- C++ -*-===//
//
// strata-emit-c-interface renames public functions named like C library
// ones (EmitCInterface.cpp); exportCInterfaces gives their wrappers the
// exported names back once the module is LLVM IR.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TRANSFORMS_CINTERFACE_H
#define STRATA_TRANSFORMS_CINTERFACE_H

namespace llvm {
class Module;
} // namespace llvm

namespace strata {

/// The prefix of a renamed public function's implementation.
inline constexpr const char *kRenamedPrefix = "_strata_fn_";

/// _mlir_ciface__strata_fn_<name> becomes _mlir_ciface_<name>; the renamed
/// functions themselves become internal to the library.
void exportCInterfaces(llvm::Module &module);

} // namespace strata

#endif // STRATA_TRANSFORMS_CINTERFACE_H
