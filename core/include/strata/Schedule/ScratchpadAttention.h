//===- ScratchpadAttention.h - Attention in one pass on a grid -*- C++ -*-===//
//
// An attention O = softmax(scale Q K^T) V over independent heads, computed
// on a grid of units with scratchpads in one pass (the online softmax of
// flash attention): a unit holds one tile-row of queries, streams the
// head's keys and values through its scratchpad in steps, keeps the
// running row maximum, row sum and output rows, and never stores the
// scores. This model chooses the key step, the copies of a step's blocks,
// whether K and V are read once per row of units and multicast along it,
// and the units used, with the scratchpad accounted exactly.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_SCRATCHPADATTENTION_H
#define STRATA_SCHEDULE_SCRATCHPADATTENTION_H

#include "strata/HW/Description.h"

#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace strata {

/// O[b] = softmax(scale Q[b] K[b]^T) V[b] for b < batch: Q is queries x
/// headDim, K keys x headDim, V keys x valueDim; element types as MLIR
/// prints them ("f32", "bf16").
struct AttentionShape {
  int64_t batch = 1, queries = 0, keys = 0, headDim = 0, valueDim = 0;
  std::string qType = "f32", kType = "f32", vType = "f32", outType = "f32";
  bool scaled = true; // Q is scaled once per block (a buffer of its own)
  /// Cycles the unit's vector engine takes for the exponential of one tile
  /// (the caller's number: a description's vector unit does not say how
  /// long an exponential takes).
  double expCyclesPerTile = 0;
};

/// The chosen plan. Units [0, 0]-[rows - 1, cols - 1] compute; a row of
/// units takes one head's query tile-rows `cols` at a time (one per unit),
/// rows of units take such tasks round robin.
struct AttentionSchedule {
  std::string matrixIntrinsic;
  int64_t tileRows = 0, tileCols = 0; // the intrinsic's m x n (= k)
  int64_t rows = 1, cols = 1;         // units used
  int64_t keyTiles = 1;               // key tiles per step
  int64_t stages = 2;                 // copies of a step's K and V blocks
  bool multicast = false;             // K and V multicast along unit rows
  /// The scratchpad's buffers in declaration order (name, tiles, bytes),
  /// and the synchronization words' bytes.
  struct Buffer {
    std::string name, type;
    int64_t tiles = 0, bytes = 0;
  };
  std::vector<Buffer> buffers;
  int64_t syncBytes = 0;
  int64_t footprintBytes = 0;
  double cycles = 0, compute = 0, movement = 0, dram = 0;
  std::string bound; // compute, movement or memory
};

/// The plan of `shape` on `chip` (a grid scratchpad, gridScratchpad), or
/// an error naming `opName`: no matrix intrinsic for the operand types,
/// keys that are not whole tiles, or buffers that do not fit even with a
/// step of one key tile (each buffer with its size, the total and the
/// capacity).
llvm::Expected<AttentionSchedule>
chooseScratchpadAttention(const AttentionShape &shape,
                          const hw::Description &chip, llvm::StringRef opName);

/// "q 2 x f32 tiles = 8192 B, ..." for messages and reports.
std::string describeBuffers(const AttentionSchedule &s);

} // namespace strata

#endif // STRATA_SCHEDULE_SCRATCHPADATTENTION_H
