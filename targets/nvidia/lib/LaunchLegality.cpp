//===- LaunchLegality.cpp - What one block may use on an SM ---------------===//
#include "LaunchLegality.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <limits>

using namespace strata;
using namespace strata::nvidia;

namespace {
// Every architecture the plugin accepts (sm_70 and later) allocates
// registers to warps in units of 256 and splits an SM into 4 warp
// schedulers; a block's warps are counted in multiples of 4 when the driver
// checks its registers (as in the CUDA occupancy calculator).
constexpr int64_t kWarpSize = 32;
constexpr int64_t kRegisterGranularity = 256;
constexpr int64_t kWarpSchedulers = 4;
// The most threads of a block on any of them; a description may say fewer.
constexpr int64_t kMaxThreadsPerBlock = 1024;

/// `n` rounded up to a multiple of `unit` (both positive).
int64_t roundUp(int64_t n, int64_t unit) {
  return (n + unit - 1) / unit * unit;
}

int64_t integerOption(const hw::Description &chip, const char *name,
                      int64_t otherwise) {
  const nlohmann::json &options = chip.targetOptions;
  if (options.is_object() && options.contains(name) &&
      options[name].is_number_integer() && options[name].get<int64_t>() > 0)
    return options[name].get<int64_t>();
  return otherwise;
}

/// The warps a block of `threads` is allocated registers for.
int64_t warpsAllocated(int64_t threads) {
  return roundUp(roundUp(threads, kWarpSize) / kWarpSize, kWarpSchedulers);
}

/// The registers one warp is allocated when each thread uses `registers`.
int64_t registersPerWarp(int64_t registers) {
  return roundUp(registers * kWarpSize, kRegisterGranularity);
}

int64_t threadsOf(const std::array<int64_t, 3> &block) {
  return block[0] * block[1] * block[2];
}

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(message.str());
}
} // namespace

BlockLimits BlockLimits::of(const hw::Description &chip) {
  BlockLimits limits;
  // Without the fields, the values of every sm_70+ GPU: 1024 threads and a
  // 64K-register file.
  limits.maxThreads =
      std::min(kMaxThreadsPerBlock,
               integerOption(chip, "max_threads_per_block", limits.maxThreads));
  limits.registersPerBlock =
      integerOption(chip, "registers_per_sm", limits.registersPerBlock);
  if (chip.vector && chip.vector->registers > 0)
    limits.registersPerThread = chip.vector->registers;
  // Shared memory: the per-block share when given, else all of the SM's.
  int64_t scratchpad = 0;
  for (const hw::MemoryLevel &mem : chip.memory)
    if (mem.kind == "scratchpad")
      scratchpad = std::max(scratchpad, mem.capacityBytes);
  limits.maxSharedBytes =
      integerOption(chip, "max_shared_bytes_per_block", scratchpad);
  return limits;
}

int64_t strata::nvidia::allocatedRegisters(int64_t threads, int64_t registers) {
  return warpsAllocated(threads) * registersPerWarp(registers);
}

int64_t strata::nvidia::maxRegistersPerThread(int64_t threads,
                                              const BlockLimits &limits) {
  if (threads <= 0)
    return limits.registersPerThread;
  // Whole allocation units per warp, then per thread (a multiple of 8).
  int64_t perWarp = limits.registersPerBlock / warpsAllocated(threads) /
                    kRegisterGranularity * kRegisterGranularity;
  return std::min(limits.registersPerThread, perWarp / kWarpSize);
}

llvm::Error strata::nvidia::checkLaunches(llvm::ArrayRef<FunctionPlan> plans,
                                          llvm::StringRef ptxasLog,
                                          const BlockLimits &limits) {
  llvm::StringMap<KernelResources> kernels = parsePtxasLog(ptxasLog);
  for (const FunctionPlan &plan : plans) {
    for (const LaunchStep &step : plan.steps) {
      std::string kernel = "nvidia: kernel '" + step.kernel + "'";
      const std::array<int64_t, 3> &b = step.block, &g = step.grid;
      int64_t threads = threadsOf(b);
      // The driver's limits on the extents themselves (all GPUs since
      // sm_30): a block's z at most 64, a grid's y and z at most 65535.
      if (llvm::any_of(b, [](int64_t d) { return d < 1; }) ||
          llvm::any_of(g, [](int64_t d) { return d < 1; }) || b[2] > 64 ||
          g[0] > std::numeric_limits<int32_t>::max() || g[1] > 65535 ||
          g[2] > 65535)
        return fail(llvm::formatv("{0}: grid [{1}, {2}, {3}] of blocks [{4}, "
                                  "{5}, {6}] cannot be launched",
                                  kernel, g[0], g[1], g[2], b[0], b[1], b[2])
                        .str());
      int64_t maxThreads = std::min(kMaxThreadsPerBlock, limits.maxThreads);
      if (threads > maxThreads)
        return fail(llvm::formatv("{0}: {1} threads > {2} threads per block",
                                  kernel, threads, maxThreads)
                        .str());
      auto it = kernels.find(step.kernel);
      if (it == kernels.end())
        return fail(kernel + " of function '" + plan.name +
                    "' is not in ptxas's resource report");
      const KernelResources &used = it->second;
      int64_t allocated = allocatedRegisters(threads, used.registers);
      if (allocated > limits.registersPerBlock) {
        // Rounding is named when it is what breaks the limit.
        std::string how;
        if (allocated != threads * used.registers)
          how = llvm::formatv(" ({0} warps x {1}, as allocated)",
                              warpsAllocated(threads),
                              registersPerWarp(used.registers))
                    .str();
        return fail(llvm::formatv("{0}: {1} threads x {2} registers = {3}{4} "
                                  "> {5} registers per block",
                                  kernel, threads, used.registers, allocated,
                                  how, limits.registersPerBlock)
                        .str());
      }
      int64_t shared = used.staticSharedBytes + step.sharedBytes;
      if (limits.maxSharedBytes > 0 && shared > limits.maxSharedBytes)
        return fail(llvm::formatv("{0}: {1} bytes of static + {2} bytes of "
                                  "dynamic shared memory = {3} > {4} bytes "
                                  "per block",
                                  kernel, used.staticSharedBytes,
                                  step.sharedBytes, shared,
                                  limits.maxSharedBytes)
                        .str());
    }
  }
  return llvm::Error::success();
}

llvm::Error strata::nvidia::checkLaunches(mlir::ModuleOp lowered,
                                          llvm::StringRef ptxasLog,
                                          const hw::Description &chip) {
  llvm::Expected<std::vector<FunctionPlan>> plans = launchPlans(lowered);
  if (!plans) {
    llvm::consumeError(plans.takeError());
    return llvm::Error::success();
  }
  return checkLaunches(*plans, ptxasLog, BlockLimits::of(chip));
}
