//===- CycleModel.h - The time of an emulated tile program -----*- C++ -*-===//
//
// The cycle model replays the events the emulator recorded (Trace.h) in
// time, on a machine made of the description's numbers only:
// - the matrix engine: cycles per tile matmul = the intrinsic's
//   cycles_per_instruction x fidelity passes; elementwise ops on it process
//   engine_shape rows x cols elements per cycle;
// - the vector engine: (tile elements / lanes) x the op's instructions
//   (target_options.vector_instructions) / fma_pipes cycles per tile;
// - unpack and pack: tile bytes at the unpackers' and packers' L1 rates
//   (one unpacker alone, or both together for two-operand ops), unpack
//   overlapping math;
// - the NoC: a transfer of s bytes occupies its core's NoC for
//   s / rate(s) cycles (rate interpolated from bandwidth_by_transfer_size)
//   and arrives hops x hop_latency_cycles later (DRAM reads also wait the
//   DRAM latency); readers use one NoC, writers the other;
// - DRAM: each bank serves bandwidth / banks bytes per second;
// - a compute kernel is a math thread and a pack thread joined by the Dst
//   handshake (double-buffered: math may work on the next half while pack
//   drains the last); circular buffers and semaphores delay a kernel until
//   the event that satisfied it in the emulator has happened in time.
// Shared resources (NoCs, banks) serve requests in time order. The model
// and its assumptions: docs/tile-target.md, "The cycle model".
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_CYCLEMODEL_CYCLEMODEL_H
#define STRATA_TILE_CYCLEMODEL_CYCLEMODEL_H

#include "strata/HW/Description.h"
#include "strata/Tile/Trace.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strata::tile {

/// The description's numbers the model uses (units: cycles of clock_hz,
/// bytes).
struct CycleModelParams {
  std::string chip;
  double clockHz = 0;
  int64_t rows = 0, cols = 0;         ///< the core grid
  int64_t tileRows = 0, tileCols = 0; ///< target_options.tile
  bool dstDoubleBuffered = false;     ///< target_options.dst

  struct Intrinsic {
    std::string name, aType, accType;
    int64_t m = 0, n = 0, k = 0;
    double cycles = 0;                     ///< cycles_per_instruction
    std::map<std::string, int64_t> passes; ///< fidelity_passes
  };
  std::vector<Intrinsic> intrinsics;
  /// Elements per cycle of the matrix engine on elementwise work
  /// (layout.engine_shape rows x cols of the first intrinsic).
  double engineElementsPerCycle = 0;

  int64_t vectorLanes = 0; ///< vector.width_bits / 32
  int64_t vectorPipes = 1; ///< vector.fma_pipes
  /// Instructions per row of lanes of each vector op
  /// (target_options.vector_instructions, by op name).
  std::map<std::string, double> vectorInstructions;

  double l1BytesPerCycle = 0; ///< L1 bandwidth per core
  /// The unpackers' L1 read rate (the matrix intrinsics'
  /// operand_bytes_per_cycle): one unpacker alone and the two together
  /// (matmul and binary ops: they share access ports); L1's bandwidth when
  /// not given.
  double unpackOneBytesPerCycle = 0, unpackBothBytesPerCycle = 0;
  /// The packers' L1 write rate (result_bytes_per_cycle).
  double packBytesPerCycle = 0;
  double l1Latency = 0; ///< cycles of a circular-buffer or semaphore op

  double nocIssueCycles = 0;  ///< engine niu_latency_cycles: issuing a transfer
  double hopLatency = 0;      ///< engine hop_latency_cycles
  double flitBytes = 0;       ///< engine flit_bytes
  bool torus = false;         ///< engine topology
  int64_t nocX = 0, nocY = 0; ///< target_options.physical_grid
  /// bandwidth_by_transfer_size: (bytes, bytes per cycle), increasing.
  std::vector<std::pair<double, double>> nocCurve;

  int64_t dramBanks = 1;
  double dramBankBytesPerCycle = 0; ///< bandwidth / banks / clock
  double dramLatency = 0;           ///< DRAM latency_cycles

  /// Reads every field; an error names what is missing.
  static llvm::Expected<CycleModelParams>
  fromDescription(const hw::Description &description);

  /// NoC rate (bytes per cycle) of one transfer of `bytes`, interpolated
  /// linearly in log(bytes) between points, proportional below the first.
  double nocRate(double bytes) const;
  /// The intrinsic for operands of `type` into an accumulator of `acc`
  /// (the first with those types, else the first with that operand type).
  const Intrinsic *intrinsicFor(const std::string &type,
                                const std::string &acc) const;
  /// Cycles of one tile matmul at `fidelity`.
  llvm::Expected<double> matmulCycles(const std::string &type,
                                      const std::string &acc,
                                      const std::string &fidelity) const;
  /// Cycles of unpacking a tile of `bytes` to Dst: the engine's pass over
  /// the tile or one unpacker's L1 read, whichever is longer; a transposing
  /// unpack (transpose_wh_tile) adds one more pass of the engine over the tile
  /// (the transpose inside the faces).
  double unpackCycles(double tileElements, double bytes, bool transpose) const;
  /// Hops from core `from` to core `to` (indices row * cols + col) on NoC
  /// `noc` (0 or 1: opposite directions on a torus).
  int64_t hops(int64_t from, int64_t to, int noc) const;
  /// The mean hops to a DRAM bank (the description does not place them).
  double dramHops() const;
};

/// Per core: when each kernel ended and how busy its engines were.
struct CoreCycles {
  int64_t row = 0, col = 0;
  double reader = 0, compute = 0, writer = 0; ///< end times (0: no kernel)
  double matrixBusy = 0; ///< cycles the matrix engine computed matmuls
  double mathBusy = 0;   ///< cycles of the math thread's work
  double packBusy = 0;   ///< cycles of the pack thread's work
  double end() const;
};

struct CycleReport {
  std::string chip;
  double clockHz = 0;
  double cycles = 0;             ///< the whole program
  std::vector<CoreCycles> cores; ///< cores that run a kernel
  int64_t gridCores = 0;

  int64_t matmuls = 0;            ///< tile matmuls
  double matmulFlops = 0;         ///< 2 m n k per tile matmul
  std::string fidelity;           ///< of the kernels that ran matmuls
  double matrixBusy = 0;          ///< sum over cores
  double lofiCyclesPerMatmul = 0; ///< the fastest fidelity, for the peak
  double dramBytes = 0;           ///< read and written
  double nocBytes = 0;            ///< all NoC transfers
  double dramBytesPerCycle = 0;   ///< the chip's DRAM bandwidth

  /// Lower bounds: the busiest unit of each kind, in cycles.
  double computeBound = 0, nocBound = 0, dramBound = 0;
  std::string bound; ///< "compute", "noc" or "dram": the largest

  double seconds() const { return cycles / clockHz; }
  /// Matrix-engine busy cycles over the program's cycles on every core of
  /// the grid: the fraction of the matrix peak at the kernels' fidelity.
  double matrixUtilization() const;
  /// The same against the peak at the fastest fidelity.
  double matrixUtilizationOfFastest() const;
  /// DRAM bytes over what the chip's DRAM moves in the program's time.
  double dramUtilization() const;
};

/// Replays `trace` on `params`.
llvm::Expected<CycleReport> predictCycles(const Trace &trace,
                                          const CycleModelParams &params);

/// The report of programs run one after the other on one chip (the parts
/// of a function): cycles, matmuls, FLOPs, busy cycles, bytes and each
/// kind's bound add up, the bound is the largest sum; the fastest
/// fidelity's matmul cycles are averaged over the matmuls; the per-core
/// lines are the parts' own and are left out.
CycleReport sequenceReport(llvm::ArrayRef<CycleReport> parts);

/// The report as text: the total, the bound, matrix-engine and DRAM
/// utilization; with `perCore`, one line per core.
std::string formatCycleReport(const CycleReport &report, bool perCore);

} // namespace strata::tile

#endif // STRATA_TILE_CYCLEMODEL_CYCLEMODEL_H
