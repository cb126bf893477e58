//===- HierarchyModel.cpp - Schedules over nested compute levels ----------===//
//
// Decisions, from the outside in, for a contraction on a chip whose
// scratchpad belongs to a level with groups of lanes inside:
//   1. the fragment: a collective intrinsic (issued by a level between the
//      block and the group level, e.g. several groups together) whose
//      accumulators fit half of a lane's registers, else a matrix intrinsic
//      the group level issues with the operands' types (either only with
//      k tiles enough for a k loop of two iterations; f32 operands match
//      tf32 intrinsics only when the options allow it), else a multiply-add
//      tile per lane sized to half of its registers;
//   2. the group tile: as many fragments as keep the accumulators in half of
//      a lane's registers, the most multiply-adds per loaded element;
//   3. the block: the groups of one block-level instance arranged near
//      square (collective groups along m), halved while there are fewer
//      blocks (over m, n and the batch) than instances to fill;
//   4. the k step: the largest (up to 4 fragments) whose operand tiles,
//      double-buffered when they fit, and the staging tile fit the
//      scratchpad; rows padded so that consecutive rows start in other banks;
//   5. with asynchronous copies into the scratchpad (matrix intrinsics only),
//      the staging tile reuses the stages' bytes (the k step may grow), and
//      as many stages as fit, up to kMaxStages, that divide the k tiles (the
//      pipelined loop is unrolled by its stages: buffers are indexed
//      statically) into at least two iterations (a loop of one iteration
//      folds away, and the accumulators with it: a short k gets shallower
//      k tiles, and a collective intrinsic, whose tiles have a fixed
//      depth, needs three); a collective intrinsic's stages are filled by
//      bulk copies where the scratchpad has them.
//
//===----------------------------------------------------------------------===//
#include "strata/Schedule/HierarchyModel.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace strata;

int64_t strata::typeBytes(const std::string &type) {
  if (type == "f64" || type == "i64")
    return 8;
  if (type == "f32" || type == "tf32" || type == "i32")
    return 4;
  if (type == "f16" || type == "bf16" || type == "i16")
    return 2;
  if (type == "i8" || type == "fp8e4m3" || type == "fp8e5m2")
    return 1;
  return 0;
}

std::optional<HierarchyLevels>
strata::hierarchyLevels(const hw::Description &chip) {
  for (const hw::MemoryLevel &mem : chip.memory) {
    if (mem.kind != "scratchpad")
      continue;
    auto owner = std::find_if(
        chip.compute.begin(), chip.compute.end(),
        [&](const hw::ComputeLevel &c) { return c.name == mem.owner; });
    if (owner == chip.compute.end() || chip.compute.end() - owner < 3)
      continue; // the owner needs a group level and a lane level inside
    HierarchyLevels levels;
    levels.block = owner->name;
    levels.group = chip.compute[chip.compute.size() - 2].name;
    levels.lane = chip.compute.back().name;
    levels.scratchpad = mem.name;
    levels.blocks = std::max<int64_t>(chip.totalUnits(levels.block), 1);
    for (auto it = owner + 1; it + 1 != chip.compute.end(); ++it)
      levels.groups *= std::max<int64_t>(it->count, 1);
    levels.lanes = std::max<int64_t>(chip.compute.back().count, 1);
    levels.scratchpadBytes = mem.capacityBytes;
    levels.scratchpadBanks = mem.banks;
    levels.registers = chip.vector ? chip.vector->registers : 64;
    levels.asyncCopies = mem.asyncCopy;
    levels.bulkCopies = mem.bulkTensorCopy;
    return levels;
  }
  return std::nullopt;
}

namespace {
int64_t roundUp(int64_t a, int64_t b) {
  return llvm::divideCeilSigned(a, b) * b;
}

/// Whether an intrinsic operand of type `operand` reads `input` elements:
/// the same type, or f32 read as tf32 (its low mantissa bits dropped) when
/// the user allows it.
bool operandMatches(const std::string &operand, const std::string &input,
                    const HierarchyOptions &options) {
  return operand == input ||
         (options.allowTf32 && operand == "tf32" && input == "f32");
}

/// Whether `mi` multiplies `shape`'s operand types; accumulating in a wider
/// type than the output is allowed (f16 results from f32 accumulators).
bool typesMatch(const hw::MatrixIntrinsic &mi, const ContractionShape &shape,
                const HierarchyOptions &options) {
  if (!operandMatches(mi.aType, shape.inputType, options) ||
      !operandMatches(mi.bType, shape.inputType, options))
    return false;
  return mi.accType == shape.accType ||
         (mi.accType == "f32" &&
          (shape.accType == "f16" || shape.accType == "bf16"));
}

/// The first intrinsic (description order is preference order) issued by
/// the group level for `shape`'s types.
const hw::MatrixIntrinsic *matchIntrinsic(const ContractionShape &shape,
                                          const HierarchyLevels &levels,
                                          const hw::Description &chip,
                                          const HierarchyOptions &options) {
  for (const hw::MatrixIntrinsic &mi : chip.matrix)
    // Under three fragments of k, the k loop the intrinsic accumulates in
    // would fold away (one iteration): multiply-adds then.
    if (mi.level == levels.group && typesMatch(mi, shape, options) &&
        llvm::divideCeilSigned(shape.k, mi.k) >= 3)
      return &mi;
  return nullptr;
}

/// The first collective intrinsic for `shape`: issued by a compute level
/// strictly between the block and the group level (several groups issue it
/// together), whose accumulators fit half of a lane's registers. On a match
/// `levels` take that level as their group level (its instances per block,
/// its lanes).
const hw::MatrixIntrinsic *matchCollective(const ContractionShape &shape,
                                           HierarchyLevels &levels,
                                           const hw::Description &chip,
                                           const HierarchyOptions &options) {
  auto block = std::find_if(
      chip.compute.begin(), chip.compute.end(),
      [&](const hw::ComputeLevel &c) { return c.name == levels.block; });
  if (block == chip.compute.end())
    return nullptr;
  int64_t registers = std::max<int64_t>(levels.registers, 8);
  for (const hw::MatrixIntrinsic &mi : chip.matrix) {
    auto level = std::find_if(
        block + 1, chip.compute.end(),
        [&](const hw::ComputeLevel &c) { return c.name == mi.level; });
    // Strictly inside the block, above the group level.
    if (level == chip.compute.end() || chip.compute.end() - level < 3 ||
        !typesMatch(mi, shape, options))
      continue;
    // Its k tiles are 4 fragments deep (the plugin's swizzled rows): fewer
    // than 3 of them leave a two-stage pipeline's k loop one iteration,
    // which folds away with the accumulators it carries.
    if (llvm::divideCeilSigned(shape.k, 4 * mi.k) < 3)
      continue;
    HierarchyLevels collective = levels;
    collective.group = level->name;
    collective.groups = 1;
    for (auto it = block + 1; it <= level; ++it)
      collective.groups *= std::max<int64_t>(it->count, 1);
    collective.lanes = 1;
    for (auto it = level + 1; it != chip.compute.end(); ++it)
      collective.lanes *= std::max<int64_t>(it->count, 1);
    if (llvm::divideCeilSigned(mi.m * mi.n, collective.lanes) > registers / 2)
      continue;
    levels = collective;
    return &mi;
  }
  return nullptr;
}

/// Powers of two times `unit`, up to `limit` (at least `unit`).
std::vector<int64_t> multiples(int64_t unit, int64_t limit) {
  std::vector<int64_t> out;
  for (int64_t v = unit; v <= std::max(limit, unit); v *= 2)
    out.push_back(v);
  return out;
}
} // namespace

HierarchySchedule strata::chooseHierarchySchedule(
    const ContractionShape &shape, const HierarchyLevels &given,
    const hw::Description &chip, const HierarchyOptions &options) {
  HierarchySchedule s;
  s.levels = given;
  // A collective intrinsic makes its level the group level.
  const hw::MatrixIntrinsic *collective =
      matchCollective(shape, s.levels, chip, options);
  const HierarchyLevels &levels = s.levels;
  int64_t eb = std::max<int64_t>(typeBytes(shape.inputType), 1);
  int64_t registers = std::max<int64_t>(levels.registers, 8);
  int64_t lanes = levels.lanes;

  // 1-2. Fragment and group tile. A collective intrinsic reads both operands
  // from the scratchpad itself: a group tile of several fragments would save
  // no loads, so the group tile is one fragment.
  if (collective) {
    s.intrinsic = collective->name;
    s.collective = true;
    s.fragM = s.groupM = collective->m;
    s.fragN = s.groupN = collective->n;
    s.fragK = collective->k;
    s.accumulatorRegisters = llvm::divideCeilSigned(s.fragM * s.fragN, lanes);
  } else if (const hw::MatrixIntrinsic *mi =
                 matchIntrinsic(shape, levels, chip, options)) {
    s.intrinsic = mi->name;
    s.fragM = mi->m, s.fragN = mi->n, s.fragK = mi->k;
    double best = -1;
    for (int64_t gm : multiples(s.fragM, roundUp(shape.m, s.fragM)))
      for (int64_t gn : multiples(s.fragN, roundUp(shape.n, s.fragN))) {
        // f32 accumulators spread over the lanes, in half the registers.
        int64_t acc = llvm::divideCeilSigned(gm * gn, lanes);
        if (acc > registers / 2)
          continue;
        double score = double(gm * gn) / double(gm + gn);
        if (score > best + 1e-9) {
          best = score;
          s.groupM = gm, s.groupN = gn, s.accumulatorRegisters = acc;
        }
      }
    if (best < 0)
      s.groupM = s.fragM, s.groupN = s.fragN,
      s.accumulatorRegisters = llvm::divideCeilSigned(s.fragM * s.fragN, lanes);
  } else {
    // A tm x tn tile per lane: accumulators plus one column of A and one
    // row of B in half the registers.
    double best = -1;
    for (int64_t tm = 1; tm <= 16; tm *= 2)
      for (int64_t tn = 1; tn <= 16; tn *= 2) {
        if (tm * tn + tm + tn > registers / 2)
          continue;
        double score = double(tm * tn) / double(tm + tn);
        if (score > best + 1e-9)
          best = score, s.fragM = tm, s.fragN = tn;
      }
    s.fragK = 1;
    s.accumulatorRegisters = s.fragM * s.fragN;
    // Lanes side by side along n (contiguous in memory), the rest along m.
    int64_t lanesN = 1;
    while (lanesN * lanesN < lanes)
      lanesN *= 2;
    int64_t lanesM = std::max<int64_t>(lanes / lanesN, 1);
    s.groupM = lanesM * s.fragM, s.groupN = lanesN * s.fragN;
  }

  // 3. Groups per block, near square, not past the problem.
  int64_t groups = 1;
  while (groups * 2 <= levels.groups)
    groups *= 2;
  int64_t gm = 1, gn = 1;
  while (gm * gn < groups) {
    bool mFull = gm * s.groupM >= shape.m, nFull = gn * s.groupN >= shape.n;
    if (mFull && nFull)
      break;
    // Collective groups stack along m only: each multiplies its rows of A by
    // the whole B tile of the block (its fragment is already the widest
    // that fits the lanes' registers).
    if (!mFull && (nFull || s.collective || gm * s.groupM <= gn * s.groupN))
      gm *= 2;
    else if (s.collective)
      break;
    else
      gn *= 2;
  }
  // Every batch element runs the whole (m, n) grid.
  int64_t batch = std::max<int64_t>(shape.batch, 1);
  auto gridOf = [&](int64_t a, int64_t b) {
    return llvm::divideCeilSigned(shape.m, a * s.groupM) *
           llvm::divideCeilSigned(shape.n, b * s.groupN) * batch;
  };
  // Fewer blocks than instances leaves instances idle: smaller blocks.
  while (gm * gn > 1 && gridOf(gm, gn) < levels.blocks) {
    if (gm >= gn)
      gm /= 2;
    else
      gn /= 2;
  }
  // 4. k step, buffering and padding. A matrix load reads eight rows of 16
  // bytes: rows shifted by a quarter of the banks' width land in disjoint
  // banks. Lanes reading down a column need a one-element shift.
  int64_t banks = std::max<int64_t>(levels.scratchpadBanks, 1);
  // A collective intrinsic reads the scratchpad in the plugin's layout
  // (e.g. swizzled): no padding.
  s.padElements = s.collective ? 0
                  : s.intrinsic.empty()
                      ? 1
                      : std::max<int64_t>((4 * banks / 8) / eb, 1);
  int64_t kLimit = roundUp(shape.k, s.fragK);
  // Blocks that do not fit even with one buffer of one fragment of k lose
  // groups, then group tiles, until they do.
  for (;;) {
    s.groupsM = gm, s.groupsN = gn;
    s.blockM = gm * s.groupM, s.blockN = gn * s.groupN;
    int64_t staging = s.intrinsic.empty() ? 0 : s.blockM * s.blockN * 4;
    auto footprint = [&](int64_t bk, int64_t buffers) {
      return buffers *
                 (s.blockM * (bk + s.padElements) +
                  bk * (s.blockN + s.padElements)) *
                 eb +
             staging;
    };
    bool found = false;
    s.blockK = s.fragK, s.buffers = 1;
    for (int64_t buffers : {2, 1}) {
      for (int64_t f = 4; f >= 1 && !found; f /= 2) {
        int64_t bk =
            std::min(s.fragK * f * (s.intrinsic.empty() ? 4 : 1), kLimit);
        if (footprint(bk, buffers) <= levels.scratchpadBytes)
          s.blockK = bk, s.buffers = buffers, found = true;
      }
      if (found)
        break;
    }
    s.scratchpadBytes = footprint(s.blockK, s.buffers);
    if (found)
      break;
    if (gm * gn > 1) {
      (gm >= gn ? gm : gn) /= 2;
    } else if (!s.intrinsic.empty() &&
               (s.groupM > s.fragM || s.groupN > s.fragN)) {
      (s.groupM >= s.groupN && s.groupM > s.fragM ? s.groupM : s.groupN) /= 2;
      s.accumulatorRegisters =
          llvm::divideCeilSigned(s.groupM * s.groupN, lanes);
    } else if (s.intrinsic.empty() && (s.fragM > 1 || s.fragN > 1)) {
      // Lane tiles shrink; the lanes keep their arrangement.
      int64_t lanesM = s.groupM / s.fragM, lanesN = s.groupN / s.fragN;
      (s.fragM >= s.fragN ? s.fragM : s.fragN) /= 2;
      s.groupM = lanesM * s.fragM, s.groupN = lanesN * s.fragN;
      s.accumulatorRegisters = s.fragM * s.fragN;
    } else {
      break; // the smallest block: S4 reports that it does not fit
    }
  }
  // 5. Pipeline stages. The staging tile is written after the last k tile
  // was used: it shares the stages' bytes, so the k step is chosen again,
  // the largest with two stages in max(stages, staging).
  if (levels.asyncCopies && !s.intrinsic.empty() && s.buffers == 2 &&
      s.scratchpadBytes <= levels.scratchpadBytes) {
    int64_t staging = s.blockM * s.blockN * 4;
    auto perStage = [&](int64_t bk) {
      return (s.blockM * (bk + s.padElements) +
              bk * (s.blockN + s.padElements)) *
             eb;
    };
    auto shared = [&](int64_t bk, int64_t stages) {
      return std::max(stages * perStage(bk), staging);
    };
    for (int64_t f = 4; f >= 1; f /= 2) {
      int64_t bk = std::min(s.fragK * f, kLimit);
      if (bk > s.blockK && shared(bk, 2) <= levels.scratchpadBytes) {
        s.blockK = bk;
        break;
      }
    }
    // At least two iterations of a two-stage pipeline: a short k gets
    // shallower k tiles (not a collective intrinsic's: its depth is fixed).
    while (!s.collective && s.blockK > s.fragK &&
           llvm::divideCeilSigned(shape.k, s.blockK) < 3)
      s.blockK /= 2;
    s.buffers = 2;
    int64_t kTiles = llvm::divideCeilSigned(shape.k, s.blockK);
    for (int64_t stages = kMaxStages; stages > 2; --stages)
      if (kTiles % stages == 0 && kTiles / stages >= 2 &&
          shared(s.blockK, stages) <= levels.scratchpadBytes) {
        s.buffers = stages;
        break;
      }
    s.scratchpadBytes = shared(s.blockK, s.buffers);
    s.asyncCopies = true;
    // Bulk copies move unpadded boxes: the tiles of collective intrinsics.
    s.bulkCopies = s.collective && levels.bulkCopies;
  }
  s.gridM = llvm::divideCeilSigned(shape.m, s.blockM);
  s.gridN = llvm::divideCeilSigned(shape.n, s.blockN);
  s.gridBatch = batch;
  return s;
}

RowSchedule strata::chooseRowSchedule(int64_t rows,
                                      const HierarchyLevels &levels) {
  RowSchedule r;
  rows = std::max<int64_t>(rows, 1);
  while (r.groupsPerBlock * 2 <= levels.groups)
    r.groupsPerBlock *= 2;
  // Fewer blocks than instances leaves instances idle: smaller blocks.
  while (r.groupsPerBlock > 1 &&
         llvm::divideCeilSigned(rows, r.groupsPerBlock) < levels.blocks)
    r.groupsPerBlock /= 2;
  r.blocks = llvm::divideCeilSigned(rows, r.groupsPerBlock);
  return r;
}

nlohmann::json HierarchySchedule::toJson() const {
  nlohmann::json doc = {{"block", {levels.block, blockM, blockN, blockK}},
                        {"grid", gridBatch > 1
                                     ? nlohmann::json{gridBatch, gridM, gridN}
                                     : nlohmann::json{gridM, gridN}},
                        {"groups", {levels.group, groupsM, groupsN}},
                        {"group_tile", {groupM, groupN}},
                        {"fragment", {fragM, fragN, fragK}},
                        {"intrinsic", intrinsic.empty() ? "fma" : intrinsic},
                        {"lanes", lanesPerBlock()},
                        {"scratchpad", {levels.scratchpad, scratchpadBytes}},
                        {"buffers", buffers},
                        {"async_copies", asyncCopies},
                        {"pad", padElements},
                        {"accumulator_registers", accumulatorRegisters}};
  if (collective)
    doc["collective"] = true;
  if (bulkCopies)
    doc["bulk_copies"] = true;
  return doc;
}
