//===- HierarchyAttentionModel.h - Fused attention --------------*- C++ -*-===//
//
// The schedule of scaled dot-product attention, out = softmax(scale(Q Kᵀ)) V,
// as one kernel on a chip whose scratchpad is owned by a level with groups of
// lanes inside (HierarchyModel.h). A block is one (batch, tile of query rows)
// pair; each group owns `fragM` query rows (the intrinsic's m) times the
// whole head dimension. Key and value tiles of `blockK` rows stream through
// the scratchpad; the softmax is online (running row maximum and sum,
// rescaled partial output), so no score matrix of queries x keys is ever
// stored: only the block's queries x blockK scores.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_HIERARCHYATTENTIONMODEL_H
#define STRATA_SCHEDULE_HIERARCHYATTENTIONMODEL_H

#include "strata/Schedule/HierarchyModel.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace strata {

/// Attention as the model sees it: `batch` independent problems (batch x
/// heads), `queries` x `headDim` queries, `keys` x `headDim` keys and
/// `keys` x `valueDim` values of element type `inputType`.
struct HierarchyAttentionShape {
  int64_t batch = 1, queries = 1, keys = 1, headDim = 1, valueDim = 1;
  std::string inputType = "f16";
};

/// Scratchpad tiles of one block, in bytes, each a multiple of 16.
struct HierarchyAttentionTiles {
  int64_t query = 0;  ///< Q tile: blockM x (headDim + pad), input type
  int64_t keysT = 0;  ///< Kᵀ tile: headDim x (blockK + pad), input type
  int64_t values = 0; ///< V tile: blockK x (valueDim + pad), input type
  int64_t scores = 0; ///< f32 scores, blockM x (blockK + 2), and later the
                      ///< f32 product P V, blockM x (valueDim + 2): one buffer
  int64_t probs = 0;  ///< P tile: blockM x (blockK + pad), input type
  int64_t output = 0; ///< f32 running output: blockM x (valueDim + 2)
  int64_t rows = 0;   ///< f32 row maximum, sum, rescale factor, next
                      ///< maximum, and each row lane's partial maximum
                      ///< and sum
  int64_t total() const {
    return query + keysT + values + scores + probs + output + rows;
  }
};

struct HierarchyAttentionSchedule {
  HierarchyLevels levels;
  /// The matrix intrinsic the groups issue for both products (Q Kᵀ and
  /// P V) and its shape.
  std::string intrinsic;
  int64_t fragM = 1, fragN = 1, fragK = 1;
  /// Groups per block (each owns fragM query rows), the block's query rows
  /// (groups x fragM) and the keys of one key tile.
  int64_t groups = 1, blockM = 1, blockK = 1;
  /// Lanes that share the statistics of one row, each over a slice of the
  /// key tile: as many as the block has lanes per query row.
  int64_t rowLanes = 1;
  /// Elements each row of an input-type tile is padded by (rows then start
  /// in other banks); f32 tiles are padded by 2 elements (8-byte aligned
  /// rows for the accumulators' pair stores).
  int64_t padElements = 0;
  static constexpr int64_t kF32Pad = 2;
  HierarchyAttentionTiles tiles;
  /// Grid: batch x query tiles; key tiles per block.
  int64_t gridBatch = 1, gridQueries = 1, keyTiles = 1;
  /// Registers one lane keeps accumulators in (scores and P V products).
  int64_t accumulatorRegisters = 0;

  int64_t lanesPerBlock() const { return groups * levels.lanes; }
  nlohmann::json toJson() const;
};

/// The tiles of a block of `blockM` query rows and `blockK` keys, each row's
/// statistics shared by `rowLanes` lanes.
HierarchyAttentionTiles
hierarchyAttentionTiles(const HierarchyAttentionShape &shape, int64_t blockM,
                        int64_t blockK, int64_t padElements,
                        int64_t rowLanes = 1);

/// The schedule of `shape` on `chip`, or an error message: no intrinsic the
/// group level issues for the input type, head dimensions the intrinsic's
/// shape does not divide, or no block that fits the scratchpad.
struct HierarchyAttentionChoice {
  std::optional<HierarchyAttentionSchedule> schedule;
  std::string error;
};
HierarchyAttentionChoice
chooseHierarchyAttentionSchedule(const HierarchyAttentionShape &shape,
                                 const HierarchyLevels &levels,
                                 const hw::Description &chip);

} // namespace strata

#endif // STRATA_SCHEDULE_HIERARCHYATTENTIONMODEL_H
