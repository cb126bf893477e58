//===- NpuSimulator.h - The npu functional and cycle simulator --*- C++ -*-===//
//
// Runs a function of npu ops on host memory, exactly (each op's meaning is in
// NpuOps.td), while timing it on a model of the chip's engines and checking
// that the ops' tokens order every pair of conflicting memory accesses.
//
//===----------------------------------------------------------------------===//
#ifndef NPU_SIM_NPUSIMULATOR_H
#define NPU_SIM_NPUSIMULATOR_H

#include "strata/HW/Description.h"
#include "strata/Runtime/Device.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace npu {

/// The numbers of the timing model, in cycles of the chip's clock.
struct SimParams {
  double clockHz = 1e9;
  double dramBytesPerCycle = 64; // shared by all cores
  double dramLatencyCycles = 0;
  int64_t dramAlignmentBytes = 1; // each contiguous run is rounded up to it
  int64_t scratchpadBytes = 0;    // per core; 0: unchecked
  int64_t accumulatorBytes = 0;   // per core; 0: unchecked
  double dmaSetupCycles = 0;
  double dmaBytesPerCycle = 64;
  int64_t dmaQueues = 1; // DMA channels per core
  int64_t arrayM = 1, arrayN = 1, arrayK = 1;
  double cyclesPerInstruction = 1; // one M x N x K step of the array
  double arrayFillCycles = 0;      // per matmul op
  int64_t vectorLanes = 1;
  std::map<std::string, double> vectorCycles; // per lane group; default 1
  int64_t cores = 1;
};

/// Reads the timing model off a chip description: the DRAM level (kind
/// "dram", else the farthest), the first scratchpad level with a movement
/// engine, the accumulator of the first matrix intrinsic, the vector width
/// and the target options `array_fill_cycles` and `vector_cycles`. What the
/// description lacks keeps SimParams' defaults.
SimParams simParams(const strata::hw::Description &chip);

/// What one launch did.
struct SimReport {
  double cycles = 0;
  double clockHz = 1e9;
  double arrayBusyCycles = 0;  // summed over cores
  double usefulMacs = 0;       // sum of m * n * k over matmuls
  double peakMacsPerCycle = 0; // of the whole chip
  double dramBytes = 0;        // moved by DMA, alignment included
  double dramBytesPerCycle = 1;
  int cores = 1;
  int64_t ops = 0;
  /// "npu: 2345678 cycles (2.346 ms at 1 GHz), systolic array 87.3% of
  /// peak (2 cores)" and a line on the engines.
  std::string str() const;
};

/// Runs `fn` with `args`, the host addresses of its memref arguments in
/// order (each as large as its static type). Fails on an op it does not know,
/// a buffer that does not fit its core's memory, or a hazard: an op that
/// starts while an earlier one it conflicts with still runs.
llvm::Expected<SimReport> simulate(mlir::func::FuncOp fn,
                                   llvm::ArrayRef<void *> args,
                                   const SimParams &params);

/// A runtime device that runs npu artifacts (MLIR files of func.func ops of
/// npu ops) on the simulator; its timers report simulated time.
llvm::Expected<std::unique_ptr<strata::runtime::Device>>
createSimDevice(const strata::hw::Description &chip);

} // namespace npu

#endif // NPU_SIM_NPUSIMULATOR_H
