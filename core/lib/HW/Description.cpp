//===- Description.cpp - Queries on a loaded hardware description ---------===//

#include "strata/HW/Description.h"

#include <fmt/format.h>

namespace strata::hw {

const ComputeLevel *Description::findCompute(llvm::StringRef levelName) const {
  for (const ComputeLevel &level : compute)
    if (level.name == levelName)
      return &level;
  return nullptr;
}

const MemoryLevel *Description::findMemory(llvm::StringRef levelName) const {
  for (const MemoryLevel &level : memory)
    if (level.name == levelName)
      return &level;
  return nullptr;
}

int64_t Description::largestCacheBytes() const {
  int64_t largest = 0;
  for (const MemoryLevel &level : memory)
    if (level.kind == "cache")
      largest = std::max(largest, level.capacityBytes);
  return largest;
}

int64_t MatrixIntrinsic::fastestPasses() const {
  int64_t fewest = 0;
  for (const auto &[name, count] : fidelityPasses)
    fewest = fewest == 0 ? count : std::min(fewest, count);
  return fewest == 0 ? 1 : fewest;
}

int64_t Description::totalUnits(llvm::StringRef levelName) const {
  int64_t total = 1;
  for (const ComputeLevel &level : compute) {
    int64_t count = level.count < 0 ? 0 : level.count;
    if (__builtin_mul_overflow(total, count, &total))
      total = INT64_MAX; // saturate: only reachable without validation
    if (level.name == levelName)
      return total;
  }
  return 0;
}

std::string LoadResult::formatErrors() const {
  std::string out;
  for (const Diagnostic &diag : errors) {
    if (diag.line > 0)
      out += fmt::format("{}:{}:{}: error: {}\n", sourceName, diag.line,
                         diag.column, diag.message);
    else if (diag.path.empty())
      out += fmt::format("{}: error: {}\n", sourceName, diag.message);
    else
      out += fmt::format("{}: error: at {}: {}\n", sourceName, diag.path,
                         diag.message);
  }
  return out;
}

} // namespace strata::hw
