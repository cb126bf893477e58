//===- HalfVectorMoves.h - 16-bit float vectors moved as integers -*- C++
//-*-===//
//
// After the host pipeline computes bf16 in f32 (arith-emulate-unsupported-
// floats), what is left of bf16 vectors is data movement: loads, stores,
// shuffles, element extracts. LLVM's x86 instruction selection cannot
// legalize some of it on vectors whose length is no power of two (a row of
// 129 bf16 loaded and split into registers: "Do not know how to soft
// promote this operator's operand", an abort).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_HALFVECTORMOVES_H
#define STRATA_CODEGEN_HALFVECTORMOVES_H

namespace llvm {
class Module;
} // namespace llvm

namespace strata {

/// Rewrites the loads of bf16/f16 vectors whose length is no power of two,
/// and the shuffles, extracts and stores that read them, to move i16
/// vectors of the same bits; the value is cast back to its float type only
/// where something else reads it. Runs after optimization (which would fold
/// the casts back), before code generation.
void moveHalfVectorsAsIntegers(llvm::Module &module);

} // namespace strata

#endif // STRATA_CODEGEN_HALFVECTORMOVES_H
