//===- HierarchyModel.h - Schedules over nested compute levels --*- C++ -*-===//
//
// The model for chips whose scratchpad memory is owned by a compute level
// that has further levels inside it (e.g. a grid of blocks, each a group of
// collectives of lanes): a contraction is split into block tiles sized to the
// scratchpad (with multi-buffering), each block into group tiles sized to the
// lanes' registers and to a matrix intrinsic the group issues (or a scalar
// multiply-add tile per lane when none matches), with enough blocks to fill
// the block level's instances. An intrinsic issued by a level above the
// group level (a collective of groups) makes that level the group level.
// Elementwise ops get one element per lane; row reductions one group per
// row, blocks of as many groups as keep every instance busy.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_SCHEDULE_HIERARCHYMODEL_H
#define STRATA_SCHEDULE_HIERARCHYMODEL_H

#include "strata/HW/Description.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace strata {

/// The levels a hierarchy schedule maps to, read from the description.
struct HierarchyLevels {
  std::string block;      ///< compute level owning the scratchpad
  std::string group;      ///< level directly above the lanes
  std::string lane;       ///< innermost compute level
  std::string scratchpad; ///< memory level the blocks share tiles in
  int64_t blocks = 1;     ///< instances of `block` in the chip
  int64_t groups = 1;     ///< instances of `group` in one `block`
  int64_t lanes = 1;      ///< instances of `lane` in one `group`
  int64_t scratchpadBytes = 0;
  int64_t scratchpadBanks = 0;
  int64_t registers = 0;    ///< registers of one lane (the vector unit's count)
  bool asyncCopies = false; ///< lanes copy into the scratchpad asynchronously
  bool bulkCopies = false;  ///< whole tiles arrive by asynchronous bulk copies
};

/// The levels of `chip` when it has a scratchpad owned by a compute level
/// with at least two levels inside it; nullopt otherwise (caches only, or a
/// scratchpad per innermost core), where the flat model applies.
std::optional<HierarchyLevels> hierarchyLevels(const hw::Description &chip);

/// A contraction C[b, m, n] (+)= A[b, m, k] * B[b, k, n] as the hierarchy
/// model sees it: extents (`batch`: the product of the batch loops, 1 when
/// there are none) and element type names (description spelling: "f16").
struct ContractionShape {
  int64_t m = 1, n = 1, k = 1;
  std::string inputType = "f32";
  std::string accType = "f32";
  int64_t batch = 1;
};

/// What a user allows the hierarchy model beyond exact arithmetic.
struct HierarchyOptions {
  /// f32 operands may feed a matrix intrinsic whose operands are tf32 (10
  /// mantissa bits): it rounds the inputs, so it is never the default.
  bool allowTf32 = false;
};

struct HierarchySchedule {
  HierarchyLevels levels;
  /// Block tile (one instance of the block level) and its k step.
  int64_t blockM = 1, blockN = 1, blockK = 1;
  /// Groups per block along m and n; each group owns groupM x groupN.
  int64_t groupsM = 1, groupsN = 1;
  int64_t groupM = 1, groupN = 1;
  /// The matrix intrinsic the groups issue (its shape in fragM/N/K), or
  /// empty: each lane computes a fragM x fragN tile with multiply-adds.
  std::string intrinsic;
  int64_t fragM = 1, fragN = 1, fragK = 1;
  /// The intrinsic is issued by a level above the lanes' own group (several
  /// groups together; `levels.group` names that level): it reads both
  /// operands from unpadded scratchpad tiles, one fragment per group.
  bool collective = false;
  /// Scratchpad copies of the operand tiles (2: the next k tile loads while
  /// the current one is used) and the elements each scratchpad row is
  /// padded by so that rows start in different banks.
  int64_t buffers = 1;
  /// The buffers are the stages of an asynchronous copy pipeline: the copies
  /// of the next `buffers - 1` k tiles are in flight during the math.
  bool asyncCopies = false;
  int64_t padElements = 0;
  /// The stages of a collective intrinsic's operand tiles are filled by
  /// bulk copies of whole tiles (the scratchpad's bulk_tensor_copy).
  bool bulkCopies = false;
  /// Bytes of scratchpad one block uses (operand tiles and the staging tile
  /// of the accumulators) and the grid it runs.
  int64_t scratchpadBytes = 0;
  int64_t gridM = 1, gridN = 1;
  /// Block-level instances per (m, n) block: one per batch element.
  int64_t gridBatch = 1;
  /// Registers one lane keeps accumulators in.
  int64_t accumulatorRegisters = 0;

  int64_t lanesPerBlock() const { return groupsM * groupsN * levels.lanes; }
  nlohmann::json toJson() const;
};

/// The most stages of an asynchronous copy pipeline the model chooses.
constexpr int64_t kMaxStages = 4;

/// Bytes of one element of a description type name (0 if unknown).
int64_t typeBytes(const std::string &type);

/// The schedule of a contraction on a hierarchy chip.
HierarchySchedule chooseHierarchySchedule(const ContractionShape &shape,
                                          const HierarchyLevels &levels,
                                          const hw::Description &chip,
                                          const HierarchyOptions &options = {});

/// Row reductions: one group (the level above the lanes) per row, the
/// lanes striding over it. A block holds the most groups (a power of two,
/// up to the block's) that still give every block-level instance a block.
struct RowSchedule {
  int64_t groupsPerBlock = 1;
  int64_t blocks = 1;
};

/// The schedule of `rows` row reductions on a hierarchy chip.
RowSchedule chooseRowSchedule(int64_t rows, const HierarchyLevels &levels);

} // namespace strata

#endif // STRATA_SCHEDULE_HIERARCHYMODEL_H
