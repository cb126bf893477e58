//===- Bf16Truncation.h - f32 -> bf16 for the host's code -------*- C++ -*-===//
//
// LLVM lowers an f32 -> bf16 truncation to a call of __truncsfbf2 on CPUs
// without a conversion instruction (AVX2 only, AMD Zen): a compiler-runtime
// function that the host's libgcc (GCC 12) does not define, so a library
// that truncates bf16 failed to load ("undefined symbol: __truncsfbf2").
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_BF16TRUNCATION_H
#define STRATA_CODEGEN_BF16TRUNCATION_H

namespace llvm {
class Module;
} // namespace llvm

namespace strata {

/// Gives `module`, when it computes in bf16, its own __truncsfbf2 (round to
/// nearest even; a NaN stays a quiet NaN), weak and hidden: the calls code
/// generation makes resolve inside the library whatever the runtime
/// libraries define.
void defineBf16Truncation(llvm::Module &module);

} // namespace strata

#endif // STRATA_CODEGEN_BF16TRUNCATION_H
