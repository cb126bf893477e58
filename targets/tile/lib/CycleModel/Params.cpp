//===- Params.cpp - The description's numbers for the cycle model ---------===//
#include "strata/Tile/CycleModel/CycleModel.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace strata;
using namespace strata::tile;

static llvm::Error missing(const std::string &what) {
  return llvm::createStringError("the cycle model needs " + what);
}

llvm::Expected<CycleModelParams>
CycleModelParams::fromDescription(const hw::Description &d) {
  CycleModelParams p;
  p.chip = d.name;
  p.clockHz = d.clockHz;
  const nlohmann::json &options = d.targetOptions;
  auto number = [](const nlohmann::json &object, const char *key) {
    auto it = object.is_object() ? object.find(key) : object.end();
    return it != object.end() && it->is_number() ? it->get<double>() : -1.0;
  };
  auto grid = options.is_object() ? options.find("grid") : options.end();
  if (grid == options.end())
    return missing("/target_options/grid");
  p.rows = int64_t(number(*grid, "rows"));
  p.cols = int64_t(number(*grid, "cols"));
  auto tile = options.find("tile");
  auto physical = options.find("physical_grid");
  if (tile == options.end() || !tile->is_array() || tile->size() != 2)
    return missing("/target_options/tile: [rows, cols]");
  p.tileRows = (*tile)[0].get<int64_t>();
  p.tileCols = (*tile)[1].get<int64_t>();
  if (physical == options.end() || !physical->is_array() ||
      physical->size() != 2)
    return missing("/target_options/physical_grid: [x, y] of the NoC");
  p.nocX = (*physical)[0].get<int64_t>();
  p.nocY = (*physical)[1].get<int64_t>();
  auto dst = options.find("dst");
  p.dstDoubleBuffered = dst != options.end() && dst->is_object() &&
                        dst->value("double_buffered", false);
  auto vectorOps = options.find("vector_instructions");
  if (vectorOps == options.end() || !vectorOps->is_object())
    return missing("/target_options/vector_instructions: instructions per "
                   "row of lanes of each vector op");
  for (auto it = vectorOps->begin(); it != vectorOps->end(); ++it)
    if (it.value().is_number())
      p.vectorInstructions[it.key()] = it.value().get<double>();

  // The matrix engine.
  for (const hw::MatrixIntrinsic &m : d.matrix) {
    Intrinsic intrinsic;
    intrinsic.name = m.name;
    intrinsic.aType = m.aType;
    intrinsic.accType = m.accType;
    intrinsic.m = m.m;
    intrinsic.n = m.n;
    intrinsic.k = m.k;
    intrinsic.cycles = m.cyclesPerInstruction;
    intrinsic.passes = m.fidelityPasses;
    p.intrinsics.push_back(std::move(intrinsic));
  }
  if (p.intrinsics.empty())
    return missing("/matrix: the tile matmul intrinsics");
  const nlohmann::json &layout = d.matrix.front().layout;
  auto shape = layout.is_object() ? layout.find("engine_shape") : layout.end();
  if (shape == layout.end() || !shape->is_array() || shape->size() < 2)
    return missing("/matrix/0/layout/engine_shape: [rows, cols, k] the "
                   "engine processes per cycle");
  p.engineElementsPerCycle =
      (*shape)[0].get<double>() * (*shape)[1].get<double>();

  if (!d.vector)
    return missing("/vector: the vector engine");
  p.vectorLanes = d.vector->widthBits / 32;
  p.vectorPipes = d.vector->fmaPipes;

  // L1 with its NoC, and DRAM.
  const hw::MemoryLevel *l1 = nullptr, *dram = nullptr;
  for (const hw::MemoryLevel &level : d.memory) {
    if (level.kind == "scratchpad" && !l1)
      l1 = &level;
    if (level.kind == "dram" && !dram)
      dram = &level;
  }
  if (!l1 || !dram)
    return missing("/memory: a dram level and a scratchpad level (L1)");
  p.l1BytesPerCycle = l1->bandwidthBytesPerS / d.clockHz;
  p.l1Latency = l1->latencyCycles;
  // The unpackers' and packers' L1 rates: the matrix intrinsics' operand
  // and result rates where the description gives them (they read and write
  // through a few of L1's access ports, not all its banks).
  p.unpackOneBytesPerCycle = p.unpackBothBytesPerCycle = p.packBytesPerCycle =
      p.l1BytesPerCycle;
  for (const hw::MatrixIntrinsic &m : d.matrix) {
    if (m.operandBytesPerCycleOne > 0) {
      p.unpackOneBytesPerCycle = m.operandBytesPerCycleOne;
      p.unpackBothBytesPerCycle = m.operandBytesPerCycleTwo;
    }
    if (m.resultBytesPerCycle > 0)
      p.packBytesPerCycle = m.resultBytesPerCycle;
    if (m.operandBytesPerCycleOne > 0 || m.resultBytesPerCycle > 0)
      break;
  }
  if (!l1->engine || l1->engine->kind != "noc")
    return missing("/memory/<l1>/engine: the NoC");
  const hw::MovementEngine &noc = *l1->engine;
  p.hopLatency = noc.hopLatencyCycles;
  p.flitBytes = double(noc.flitBytes);
  p.nocIssueCycles = number(noc.extra, "niu_latency_cycles");
  if (p.nocIssueCycles < 0)
    p.nocIssueCycles = noc.setupLatencyCycles;
  p.torus = noc.extra.is_object() && noc.extra.value("topology", "") == "torus";
  auto curve = noc.extra.is_object()
                   ? noc.extra.find("bandwidth_by_transfer_size")
                   : noc.extra.end();
  if (curve != noc.extra.end() && curve->is_array())
    for (const nlohmann::json &point : *curve)
      p.nocCurve.push_back({point["bytes"].get<double>(),
                            point["bytes_per_cycle"].get<double>()});
  if (p.nocCurve.empty())
    p.nocCurve.push_back({1.0, noc.bytesPerCycle});
  p.dramBanks = std::max<int64_t>(1, dram->banks);
  p.dramBankBytesPerCycle =
      dram->bandwidthBytesPerS / double(p.dramBanks) / d.clockHz;
  p.dramLatency = dram->latencyCycles;
  if (p.rows < 1 || p.cols < 1 || p.nocX < 1 || p.nocY < 1 || p.tileRows < 1 ||
      p.tileCols < 1)
    return missing("positive grid, tile and physical_grid sizes");
  return p;
}

double CycleModelParams::unpackCycles(double tileElements, double bytes,
                                      bool transpose) const {
  double pass = tileElements / engineElementsPerCycle;
  return std::max(pass, bytes / unpackOneBytesPerCycle) +
         (transpose ? pass : 0.0);
}

double CycleModelParams::nocRate(double bytes) const {
  const auto &first = nocCurve.front(), &last = nocCurve.back();
  if (bytes <= first.first)
    return first.second * bytes / first.first;
  if (bytes >= last.first)
    return last.second;
  for (size_t i = 1; i < nocCurve.size(); ++i) {
    const auto &lo = nocCurve[i - 1], &hi = nocCurve[i];
    if (bytes > hi.first)
      continue;
    double t = std::log(bytes / lo.first) / std::log(hi.first / lo.first);
    return lo.second + t * (hi.second - lo.second);
  }
  return last.second;
}

const CycleModelParams::Intrinsic *
CycleModelParams::intrinsicFor(const std::string &type,
                               const std::string &acc) const {
  for (const Intrinsic &intrinsic : intrinsics)
    if (intrinsic.aType == type && intrinsic.accType == acc)
      return &intrinsic;
  for (const Intrinsic &intrinsic : intrinsics)
    if (intrinsic.aType == type)
      return &intrinsic;
  return nullptr;
}

llvm::Expected<double>
CycleModelParams::matmulCycles(const std::string &type, const std::string &acc,
                               const std::string &fidelity) const {
  const Intrinsic *intrinsic = intrinsicFor(type, acc);
  if (!intrinsic)
    return llvm::createStringError("chip '" + chip +
                                   "' has no matrix intrinsic for " + type +
                                   " operands");
  int64_t passes = 1;
  if (!intrinsic->passes.empty()) {
    auto it = intrinsic->passes.find(fidelity);
    if (it == intrinsic->passes.end())
      return llvm::createStringError("intrinsic '" + intrinsic->name +
                                     "' has no fidelity '" + fidelity + "'");
    passes = it->second;
  }
  // Instructions per tile matmul (tileRows x tileCols x tileCols).
  double instructions = double(tileRows) / double(intrinsic->m) *
                        double(tileCols) / double(intrinsic->n) *
                        double(tileCols) / double(intrinsic->k);
  return intrinsic->cycles * double(passes) * instructions;
}

int64_t CycleModelParams::hops(int64_t from, int64_t to, int noc) const {
  int64_t r0 = from / cols, c0 = from % cols, r1 = to / cols, c1 = to % cols;
  if (!torus)
    return std::abs(r1 - r0) + std::abs(c1 - c0);
  auto ring = [](int64_t d, int64_t size) {
    return ((d % size) + size) % size;
  };
  if (noc == 0)
    return ring(c1 - c0, nocX) + ring(r1 - r0, nocY);
  return ring(c0 - c1, nocX) + ring(r0 - r1, nocY);
}

double CycleModelParams::dramHops() const {
  // A unidirectional ring of n nodes averages (n - 1) / 2 hops; a mesh row
  // of n nodes (n^2 - 1) / (3 n).
  if (torus)
    return double(nocX - 1) / 2 + double(nocY - 1) / 2;
  return (double(nocX) * nocX - 1) / (3.0 * nocX) +
         (double(nocY) * nocY - 1) / (3.0 * nocY);
}
