//===- ThreadLowering.h - Compute grids to CPU threads ----------*- C++ -*-===//
//
// The mapped IR's `scf.forall` loops over a compute level
// (`#strata.grid<"core">`) run on CPU threads: each becomes an OpenMP
// parallel region of as many threads as the loop has iterations, with the
// iterations shared out by a static work-sharing loop.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TARGETS_CPU_THREADLOWERING_H
#define STRATA_TARGETS_CPU_THREADLOWERING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"

namespace strata::cpu {

/// Whether every mapping entry of `forall` is a `#strata.grid` level: each
/// iteration becomes a thread.
bool isGridLoop(mlir::scf::ForallOp forall);

/// Appends the passes that turn every outermost `scf.forall` on buffers whose
/// mapping names only `#strata.grid` levels into `omp.parallel` (num_threads
/// = the loop's trip count) around `omp.wsloop`/`omp.loop_nest`. Grid loops
/// nested in a threaded one, and loops not mapped to the grid, stay
/// sequential. Runs on a module, before the lowering to the LLVM dialect
/// (strata::buildLoopsToLLVMPipeline, which lowers the omp ops' operands).
/// Registered for strata-opt as the pipeline `strata-cpu-threads`.
void buildThreadLoweringPipeline(mlir::OpPassManager &pm);

} // namespace strata::cpu

#endif // STRATA_TARGETS_CPU_THREADLOWERING_H
