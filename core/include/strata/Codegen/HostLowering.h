//===- HostLowering.h - Buffers to LLVM and on to host code -----*- C++ -*-===//
//
// The shared path from loops on buffers to a host shared library: the LLVM
// dialect lowering, LLVM's optimizer and code generator for the host's
// process triple, and the link step. Used by the reference lowering (run on
// the host to check every compiled program) and by plugins whose artifact is
// a host library.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CODEGEN_HOSTLOWERING_H
#define STRATA_CODEGEN_HOSTLOWERING_H

#include "strata/Target/TargetPlugin.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>

namespace strata {

/// Loops, memref, arith, math, func → LLVM dialect, with public functions
/// exported through the C interface; omp ops stay, on LLVM types.
void buildLoopsToLLVMPipeline(mlir::OpPassManager &pm);

/// The reference lowering: S1 prepare, bufferization, linalg to plain loops,
/// LLVM dialect. No tiling, no vectorization: the yardstick for correctness.
void buildReferencePipeline(mlir::OpPassManager &pm);

/// The reference of the program's own precision: as the reference, but in
/// the program's types (sums in f32, as every target keeps them) and with
/// the f32 inputs of contractions cut to `mantissaBits` (0: kept whole), as
/// a chip's matrix unit reads them. How far it lands from the exact
/// reference is how far the program's arithmetic itself may.
void buildPrecisionReferencePipeline(mlir::OpPassManager &pm,
                                     int64_t mantissaBits);

struct HostCodegenOptions {
  std::string cpu = "native"; ///< LLVM CPU name, or "native"
  std::string features;       ///< LLVM feature string ("+feature,-other")
  unsigned optLevel = 3;
};

/// Translates an LLVM-dialect module (omp ops included) and writes it as
/// `kind` (LLVMIR, Object or Library) to `path`; nothing is left at `path` on
/// failure. A library whose code calls the OpenMP runtime links libomp from
/// LLVM's library folder, which its RUNPATH names.
llvm::Error writeHostArtifact(mlir::ModuleOp module, EmitKind kind,
                              llvm::StringRef path,
                              const HostCodegenOptions &options);

/// Ops of dialects other than `allowed` left in `module`: each is reported as
/// an op that `stage` could not lower. Returns failure if any.
mlir::LogicalResult checkFullyLowered(mlir::ModuleOp module,
                                      llvm::ArrayRef<std::string> allowed,
                                      llvm::StringRef stage);

} // namespace strata

#endif // STRATA_CODEGEN_HOSTLOWERING_H
