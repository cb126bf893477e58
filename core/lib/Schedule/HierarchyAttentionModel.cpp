//===- HierarchyAttentionModel.cpp - Fused attention on nested levels -----===//
//
// Decisions for attention as one kernel (HierarchyAttentionModel.h):
//   1. the intrinsic: the first the group level issues with the inputs'
//      type and f32 accumulators (both products use it: Q Kᵀ and P V, with
//      P rounded to the input type); without one (f32 inputs), the lanes
//      compute the products with multiply-adds from the scratchpad and a
//      group owns half as many query rows as it has lanes;
//   2. the key tile: powers of two of the unit both products need (a
//      multiple of the intrinsic's n for the scores, of its k for P V), at
//      least two of its k (P V is a k loop of at least two steps), up to
//      four units and not past the keys; a lane's accumulators (the scores
//      of its group's rows, or their P V products: never both at once) fit
//      half of its registers;
//   3. groups per block: the most (a power of two) that the query rows
//      need, halved while there are fewer blocks than block-level instances
//      to fill, then while the tiles do not fit the scratchpad (with the
//      largest key tile that fits).
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/HierarchyAttentionModel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace strata;

namespace {
int64_t align16(int64_t bytes) { return llvm::alignTo(bytes, 16); }
} // namespace

HierarchyAttentionTiles
strata::hierarchyAttentionTiles(const HierarchyAttentionShape &shape,
                                int64_t blockM, int64_t blockK, int64_t pad,
                                int64_t rowLanes) {
  int64_t eb = std::max<int64_t>(typeBytes(shape.inputType), 1);
  int64_t f32Pad = HierarchyAttentionSchedule::kF32Pad;
  HierarchyAttentionTiles t;
  t.query = align16(blockM * (shape.headDim + pad) * eb);
  t.keysT = align16(shape.headDim * (blockK + pad) * eb);
  t.values = align16(blockK * (shape.valueDim + pad) * eb);
  t.scores = align16(blockM * (std::max(blockK, shape.valueDim) + f32Pad) *
                     int64_t(4));
  t.probs = align16(blockM * (blockK + pad) * eb);
  t.output = align16(blockM * (shape.valueDim + f32Pad) * int64_t(4));
  t.rows = align16((4 + 2 * rowLanes) * blockM * int64_t(4));
  return t;
}

HierarchyAttentionChoice
strata::chooseHierarchyAttentionSchedule(const HierarchyAttentionShape &shape,
                                         const HierarchyLevels &levels,
                                         const hw::Description &chip) {
  HierarchyAttentionChoice choice;
  HierarchyAttentionSchedule s;
  s.levels = levels;
  // 1. The intrinsic.
  const hw::MatrixIntrinsic *mi = nullptr;
  for (const hw::MatrixIntrinsic &m : chip.matrix)
    if (m.level == levels.group && m.aType == shape.inputType &&
        m.bType == shape.inputType && m.accType == "f32") {
      mi = &m;
      break;
    }
  int64_t lanes = std::max<int64_t>(levels.lanes, 1);
  if (mi) {
    s.intrinsic = mi->name;
    s.fragM = mi->m, s.fragN = mi->n, s.fragK = mi->k;
  } else {
    // Multiply-adds: the lanes of the block compute the products' elements
    // from the scratchpad, one element per lane at a time; a group still
    // owns half as many query rows as it has lanes, two lanes sharing each
    // row's statistics.
    s.fragM = std::max<int64_t>(lanes / 2, 1);
    s.fragN = s.fragK = 1;
  }
  // Both products run as k loops of at least two steps (a loop of one step
  // folds away, and its accumulators with it).
  if (mi && (shape.headDim % s.fragK != 0 || shape.valueDim % s.fragN != 0 ||
             shape.headDim < 2 * s.fragK)) {
    choice.error = "head dimensions " + std::to_string(shape.headDim) +
                   " and " + std::to_string(shape.valueDim) +
                   " are not multiples of '" + s.intrinsic + "' k (" +
                   std::to_string(s.fragK) + ") and n (" +
                   std::to_string(s.fragN) + "), or fewer than two of its k";
    return choice;
  }
  int64_t registers = std::max<int64_t>(levels.registers, 8);
  int64_t eb = std::max<int64_t>(typeBytes(shape.inputType), 1);
  int64_t banks = std::max<int64_t>(levels.scratchpadBanks, 1);
  // As the contraction model: a matrix load reads rows of 16 bytes, rows
  // shifted by a quarter of the banks' width land in disjoint banks.
  s.padElements = std::max<int64_t>((4 * banks / 8) / eb, 1);

  // 2. Key tiles that keep a lane's accumulators in half its registers.
  // Without an intrinsic, key tiles are multiples of a group's rows.
  int64_t unit = mi ? std::lcm(s.fragN, s.fragK) : s.fragM;
  int64_t keysUp = llvm::divideCeilSigned(shape.keys, unit) * unit;
  auto accumulators = [&](int64_t bk) -> int64_t {
    if (!mi)
      return 1; // one element at a time
    return llvm::divideCeilSigned(s.fragM * std::max(bk, shape.valueDim),
                                  lanes);
  };
  std::vector<int64_t> keyTiles;
  int64_t first = unit;
  while (first < 2 * s.fragK)
    first *= 2;
  // The block has lanes / fragM lanes per query row: they share its
  // statistics (a power of two dividing every key tile).
  int64_t rowLanes = 1;
  while (rowLanes * 2 * s.fragM <= lanes && first % (rowLanes * 2) == 0)
    rowLanes *= 2;
  s.rowLanes = rowLanes;
  for (int64_t bk = first;
       bk <= std::max(4 * unit, first) && bk <= std::max(keysUp, first);
       bk *= 2)
    if (accumulators(bk) <= registers / 2)
      keyTiles.insert(keyTiles.begin(), bk); // largest first
  if (keyTiles.empty()) {
    choice.error = "the output rows of one group (" + std::to_string(s.fragM) +
                   " x " + std::to_string(shape.valueDim) +
                   " f32) do not fit half of a lane's registers";
    return choice;
  }

  // 3. Groups per block.
  int64_t groups = 1;
  while (groups * 2 <= levels.groups && groups * s.fragM < shape.queries)
    groups *= 2;
  auto gridOf = [&](int64_t g) {
    return shape.batch * llvm::divideCeilSigned(shape.queries, g * s.fragM);
  };
  while (groups > 1 && gridOf(groups) < levels.blocks)
    groups /= 2;
  for (; groups >= 1; groups /= 2) {
    for (int64_t bk : keyTiles) {
      HierarchyAttentionTiles t = hierarchyAttentionTiles(
          shape, groups * s.fragM, bk, s.padElements, rowLanes);
      if (t.total() > levels.scratchpadBytes)
        continue;
      s.groups = groups, s.blockM = groups * s.fragM, s.blockK = bk;
      s.tiles = t;
      s.gridBatch = shape.batch;
      s.gridQueries = llvm::divideCeilSigned(shape.queries, s.blockM);
      s.keyTiles = llvm::divideCeilSigned(shape.keys, bk);
      s.accumulatorRegisters = accumulators(bk);
      choice.schedule = s;
      return choice;
    }
  }
  HierarchyAttentionTiles smallest = hierarchyAttentionTiles(
      shape, s.fragM, keyTiles.back(), s.padElements, rowLanes);
  choice.error = "the smallest block needs " +
                 std::to_string(smallest.total()) + " bytes of '" +
                 levels.scratchpad + "', which has " +
                 std::to_string(levels.scratchpadBytes);
  return choice;
}

nlohmann::json HierarchyAttentionSchedule::toJson() const {
  return nlohmann::json{{"kind", "attention"},
                        {"intrinsic", intrinsic},
                        {"block", {levels.block, blockM, blockK}},
                        {"groups", {levels.group, groups}},
                        {"grid", {gridBatch, gridQueries}},
                        {"key_tiles", keyTiles},
                        {"pad", padElements},
                        {"row_lanes", rowLanes},
                        {"scratchpad_bytes", tiles.total()},
                        {"accumulator_registers", accumulatorRegisters},
                        {"lanes", lanesPerBlock()}};
}
