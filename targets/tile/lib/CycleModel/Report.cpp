//===- Report.cpp - The cycle model's report as text ----------------------===//
#include "strata/Tile/CycleModel/CycleModel.h"

#include "llvm/Support/FormatVariadic.h"

using namespace strata::tile;

std::string strata::tile::formatCycleReport(const CycleReport &report,
                                            bool perCore) {
  std::string out;
  llvm::raw_string_ostream os(out);
  double seconds = report.seconds();
  os << llvm::formatv("cycle model ({0} at {1:F2} GHz): {2:F0} cycles, "
                      "{3:F2} us\n",
                      report.chip, report.clockHz / 1e9, report.cycles,
                      seconds * 1e6);
  os << llvm::formatv("  bound: {0} (busiest DRAM bank {1:F0} cycles, "
                      "busiest NoC {2:F0}, busiest compute thread {3:F0})\n",
                      report.bound, report.dramBound, report.nocBound,
                      report.computeBound);
  if (report.matmuls > 0)
    os << llvm::formatv(
        "  matrix engine: {0} tile matmuls at {1}, {2:F1}% utilization "
        "({3:F1}% of the fastest fidelity's peak), {4:F2} TFLOP/s\n",
        report.matmuls, report.fidelity, 100 * report.matrixUtilization(),
        100 * report.matrixUtilizationOfFastest(),
        seconds > 0 ? report.matmulFlops / seconds / 1e12 : 0.0);
  else
    os << "  matrix engine: no tile matmuls\n";
  double bytesPerCycle = report.dramBytesPerCycle;
  os << llvm::formatv(
      "  DRAM: {0:F2} MB moved, {1:F1} GB/s of {2:F1} GB/s, {3:F1}% "
      "utilization\n",
      report.dramBytes / 1e6,
      seconds > 0 ? report.dramBytes / seconds / 1e9 : 0.0,
      bytesPerCycle * report.clockHz / 1e9, 100 * report.dramUtilization());
  const CoreCycles *slowest = nullptr;
  for (const CoreCycles &core : report.cores)
    if (!slowest || core.end() > slowest->end())
      slowest = &core;
  auto line = [&](const char *label, const CoreCycles &core) {
    os << llvm::formatv("  {0} [{1}, {2}]: reader {3:F0}, compute {4:F0}, "
                        "writer {5:F0} cycles; matrix engine busy {6:F0}\n",
                        label, core.row, core.col, core.reader, core.compute,
                        core.writer, core.matrixBusy);
  };
  if (slowest)
    line("slowest core", *slowest);
  if (perCore)
    for (const CoreCycles &core : report.cores)
      line("core", core);
  return out;
}
