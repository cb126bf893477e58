//===- ScratchpadCosts.h - The chip's numbers the scratchpad models use ---===//
//
// Shared by the scratchpad models (ScratchpadModel.cpp,
// ScratchpadAttention.cpp): element sizes and the description's numbers in
// cycles and bytes.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_CORE_SCHEDULE_SCRATCHPADCOSTS_H
#define STRATA_CORE_SCHEDULE_SCRATCHPADCOSTS_H

#include "strata/HW/Description.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace strata::scratchpad {

inline int64_t bytesOf(llvm::StringRef type) {
  if (type == "bf16" || type == "f16" || type == "i16")
    return 2;
  if (type == "i8")
    return 1;
  if (type == "f64" || type == "i64")
    return 8;
  return 4;
}

/// The chip's numbers the costs use, in cycles and bytes.
struct Costs {
  double clockHz = 1;
  double padBytesPerCycle = 1;  // scratchpad to the matrix unit
  double dramBytesPerCycle = 1; // all of DRAM
  double setup = 0;             // per transfer of the movement engine
  double stepLatency = 0;       // a read's round trip to DRAM
  double engineBytesPerCycle = 1;
  int64_t engines = 1;
  int64_t align = 1;
  int64_t capacity = 0;

  double transfer(double bytes) const {
    return setup + bytes / engineBytesPerCycle;
  }
};

inline Costs costsOf(const hw::Description &chip, const hw::MemoryLevel &pad) {
  Costs c;
  c.clockHz = chip.clockHz > 0 ? chip.clockHz : 1;
  c.padBytesPerCycle = std::max(pad.bandwidthBytesPerS / c.clockHz, 1.0);
  for (const hw::MemoryLevel &mem : chip.memory)
    if (mem.kind == "dram") {
      c.dramBytesPerCycle = std::max(mem.bandwidthBytesPerS / c.clockHz, 1e-3);
      c.stepLatency = mem.latencyCycles;
    }
  if (pad.engine) {
    c.setup = pad.engine->setupLatencyCycles;
    c.engineBytesPerCycle = std::max(pad.engine->bytesPerCycle, 1e-3);
    c.engines = std::max<int64_t>(pad.engine->count, 1);
  }
  c.align = std::max<int64_t>(pad.alignmentBytes, 1);
  c.capacity = pad.capacityBytes;
  return c;
}

} // namespace strata::scratchpad

#endif // STRATA_CORE_SCHEDULE_SCRATCHPADCOSTS_H
