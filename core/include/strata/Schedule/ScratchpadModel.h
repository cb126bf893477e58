//===- ScratchpadModel.h - Schedules for grids with scratchpads -*- C++ -*-===//
//
// For a description whose grid of compute units each owns an explicitly
// managed scratchpad memory level (memory kind `scratchpad`, no cache in
// between), nothing moves by itself: every byte a unit computes on is copied
// into its scratchpad by a data-movement engine, and everything that lives
// there at once must fit. This model chooses, per op, the output block each
// unit computes at a time, the reduction step, the matrix-unit tile, and
// which shared operands are multicast to the units that need them, with the
// scratchpad accounted exactly at compile time.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_SCRATCHPADMODEL_H
#define STRATA_SCHEDULE_SCRATCHPADMODEL_H

#include "strata/HW/Description.h"
#include "strata/Schedule/Model.h"

#include "llvm/Support/Error.h"

namespace strata {

/// The scratchpad level owned by a grid of compute units, or nullptr when
/// the description has none (or also has a cache level: the cache model
/// applies then).
const hw::MemoryLevel *gridScratchpad(const hw::Description &chip);

/// The grid of units that owns the scratchpad as rows x columns: the count
/// of the owning level and of the level above it (1 row without one).
struct UnitGrid {
  int64_t rows = 1, cols = 1;
};
UnitGrid unitGrid(const hw::Description &chip, const hw::MemoryLevel &pad);

/// The schedule of `nest` (named `opName` in messages) on a chip with a grid
/// scratchpad. Fails with a message naming the buffers, their sizes, the
/// scratchpad's capacity and the op when even the smallest blocks do not
/// fit, and when no matrix intrinsic takes a contraction's operand types.
///
/// A contraction's schedule: `grid` holds the elements of m and n one unit
/// covers, the scratchpad level's tile sizes the block of m and n a unit
/// computes at a time and the k step, `registerTile` the matrix
/// intrinsic's m x n x k, `promote` the operands staged in the scratchpad
/// (double-buffered), `multicast` those read once per row (a) or column
/// (b) of the grid and multicast to the other units. A 2-D NHWC
/// convolution is scheduled as its implicit GEMM: m the output pixels
/// flattened (grid and block on the output's last pixel loop), n the
/// filters, k the taps times the channels flattened (the k step on the
/// channel loop). An elementwise op's:
/// `registerTile` the intrinsic's tile (the unit of data movement) and the
/// scratchpad level's sizes the tiles moved per step.
llvm::Expected<Schedule> chooseScratchpadSchedule(const LoopNest &nest,
                                                  const hw::Description &chip,
                                                  llvm::StringRef opName);

} // namespace strata

#endif // STRATA_SCHEDULE_SCRATCHPADMODEL_H
