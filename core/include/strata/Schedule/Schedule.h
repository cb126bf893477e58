//===- Schedule.h - The decisions S3 makes for one op -----------*- C++ -*-===//
//
// A schedule is plain data over the loops of one structured op (one entry per
// loop, in the op's loop order): how the loops split over a compute level, the
// tile sizes per memory level, which operands are copied into a contiguous
// buffer (packing), the register tile and the vectorized loop. S3 computes it
// from the description (Schedule/Model.h); S4 applies it. It round-trips
// through JSON (`--schedule=FILE.json`) and the `#strata.schedule` attribute.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_SCHEDULE_H
#define STRATA_SCHEDULE_SCHEDULE_H

#include "llvm/Support/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

/// Tiles of one memory level: the loops this level sizes get steps `sizes`
/// (0: not tiled for this level), so that the data the level keeps fits it.
struct TileLevel {
  std::string memory;
  std::vector<int64_t> sizes;
};

struct Schedule {
  /// "contraction", "reduction" or "elementwise": how the model saw the op.
  std::string kind;
  /// Compute level whose instances split the loops (e.g. the cores) and the
  /// tile size per loop at that level (0: not split). Empty: no split.
  std::string gridLevel;
  std::vector<int64_t> grid;
  /// Memory levels outermost first, and the order of all their tile loops
  /// (outermost first): reuse, not level nesting, decides the order, e.g. a
  /// matmul's n, k, m order keeps a packed k x n panel across the m loop.
  std::vector<TileLevel> tiles;
  std::vector<int64_t> tileOrder;
  /// Operands copied into contiguous buffers padded to the innermost level's
  /// tile (packing); the copies happen where they are loop-invariant.
  std::vector<int64_t> promote;
  /// Promoted operands read once per row or column of the grid and
  /// multicast to the units that share them (grid scratchpad levels).
  std::vector<int64_t> multicast;
  /// Copies of each promoted operand's tile kept in the memory level, so
  /// loads run that many steps minus one ahead (0: not pipelined).
  int64_t stages = 0;
  /// The matrix intrinsic the register tile is made of ("": none).
  std::string matrixIntrinsic;
  /// Register tile per loop (1 for loops not kept in registers) and the order
  /// of the register-tile loops, outermost first.
  std::vector<int64_t> registerTile;
  std::vector<int64_t> registerOrder;
  /// The loop vectorized and the vector length (elements) of one register.
  int64_t vectorDim = -1;
  int64_t vectorWidth = 1;
  /// Reductions along the vectorized loop keep `vectorWidth`-wide partial
  /// results and combine them at the end.
  bool partialReduction = false;

  // The model's reasoning, for the reader of --emit=mlir.
  std::string bound;           // "compute" or "memory"
  double predictedSeconds = 0; // roofline time of the op alone
  std::vector<std::pair<std::string, int64_t>> footprints; // bytes per level

  nlohmann::json toJson() const;
  /// Reads a schedule for an op with `loops` loops; errors name the JSON path
  /// under `path`.
  static llvm::Expected<Schedule>
  fromJson(const nlohmann::json &doc, size_t loops, const std::string &path);
};

} // namespace strata

#endif // STRATA_SCHEDULE_SCHEDULE_H
