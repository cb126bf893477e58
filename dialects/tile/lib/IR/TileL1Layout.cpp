//===- TileL1Layout.cpp - Where a program's buffers live in L1 ------------===//
#include "strata/Dialect/Tile/IR/TileL1Layout.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"

#include <algorithm>

using namespace mlir;
using namespace strata::tile;

int64_t strata::tile::semaphoreBytes(const TileChip &chip) {
  return chip.alignL1(4);
}

const L1Allocation *L1Layout::find(Operation *decl) const {
  for (const L1Allocation &allocation : allocations)
    if (allocation.decl == decl)
      return &allocation;
  return nullptr;
}

L1Layout strata::tile::layoutL1(ProgramOp program, const TileChip &chip) {
  L1Layout layout;
  if (program.getBody().empty())
    return layout;
  // The first free address of every core of the grid.
  std::vector<int64_t> next(chip.rows * chip.cols, 0);
  for (Operation &op : program.getBody().front()) {
    CoreRangeAttr range;
    int64_t bytes = 0;
    if (auto cb = dyn_cast<CircularBufferOp>(op)) {
      range = cb.getCores();
      bytes = chip.alignL1(cb.getBufferType().getSizeInBytes());
    } else if (auto sem = dyn_cast<SemaphoreOp>(op)) {
      range = sem.getCores();
      bytes = semaphoreBytes(chip);
    } else {
      continue;
    }
    int64_t row1 = std::min(range.getRow1(), chip.rows - 1);
    int64_t col1 = std::min(range.getCol1(), chip.cols - 1);
    int64_t address = 0, fullest = -1;
    for (int64_t row = range.getRow0(); row <= row1; ++row)
      for (int64_t col = range.getCol0(); col <= col1; ++col)
        if (next[row * chip.cols + col] > address || fullest < 0) {
          address = std::max(address, next[row * chip.cols + col]);
          fullest = row * chip.cols + col;
        }
    if (fullest < 0)
      continue; // outside the grid: reported by the verifier
    if (address + bytes > chip.l1Bytes) {
      layout.overflow = L1Overflow{&op, fullest / chip.cols,
                                   fullest % chip.cols, address + bytes};
      return layout;
    }
    for (int64_t row = range.getRow0(); row <= row1; ++row)
      for (int64_t col = range.getCol0(); col <= col1; ++col)
        next[row * chip.cols + col] = address + bytes;
    layout.allocations.push_back({&op, address, bytes});
  }
  return layout;
}
