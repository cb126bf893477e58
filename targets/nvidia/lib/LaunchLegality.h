//===- LaunchLegality.h - What one block may use on an SM -------*- C++ -*-===//
//
// A launch fails (cuLaunchKernel: too many resources requested) unless its
// block fits one SM: at most the block's thread limit, registers for every
// thread within the register file, static plus dynamic shared memory within
// a block's share. The register limit of every kernel (RegisterLimit.cpp) is
// chosen from these rules; the launches of a bundle are checked against them
// with the registers ptxas reports.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_NVIDIA_LAUNCHLEGALITY_H
#define STRATA_NVIDIA_LAUNCHLEGALITY_H

#include "Bundle.h"
#include "Ptxas.h"

#include "strata/HW/Description.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace strata::nvidia {

/// The limits of one block on `chip`'s SMs.
struct BlockLimits {
  int64_t maxThreads = 1024;
  /// Registers one block may hold: the SM's register file.
  int64_t registersPerBlock = 65536;
  /// The most registers one thread may have (the description's per lane).
  int64_t registersPerThread = 255;
  /// Static plus dynamic shared memory; 0 when the description gives none.
  int64_t maxSharedBytes = 0;

  /// From the description's target_options (max_threads_per_block,
  /// registers_per_sm, max_shared_bytes_per_block, else the scratchpad's
  /// capacity) and its vector unit's registers.
  static BlockLimits of(const hw::Description &chip);
};

/// The registers a block of `threads` threads using `registers` each takes:
/// allocated per warp in units of 256, for a number of warps rounded up to
/// a multiple of the SM's 4 warp schedulers (the driver's per-block check).
int64_t allocatedRegisters(int64_t threads, int64_t registers);

/// The most registers per thread with which a block of `threads` fits
/// `limits` (a multiple of 8, or the per-thread cap); 0 when none does.
int64_t maxRegistersPerThread(int64_t threads, const BlockLimits &limits);

/// Checks every launch of `plans` against `limits` with the resources of
/// `ptxasLog`: threads per block, registers x threads, static + dynamic
/// shared memory. The error names the kernel and the numbers.
llvm::Error checkLaunches(llvm::ArrayRef<FunctionPlan> plans,
                          llvm::StringRef ptxasLog, const BlockLimits &limits);

/// checkLaunches for the launch plans of `lowered` (after S5) on `chip`;
/// nothing to check when its host code has none (launchPlans reports why
/// where a bundle is written).
llvm::Error checkLaunches(mlir::ModuleOp lowered, llvm::StringRef ptxasLog,
                          const hw::Description &chip);

} // namespace strata::nvidia

#endif // STRATA_NVIDIA_LAUNCHLEGALITY_H
