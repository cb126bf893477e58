//===- TileL1Layout.h - Where a program's buffers live in L1 ---*- C++ -*-===//
//
// The circular buffers and semaphores of a program are placed in L1 in
// declaration order, each at one address on every core of its range: the
// highest free address among those cores, aligned. The verifier checks the
// layout against the chip's L1 capacity and the emulator uses it, so a
// program that verifies is laid out exactly as it runs.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_IR_TILEL1LAYOUT_H
#define STRATA_DIALECT_TILE_IR_TILEL1LAYOUT_H

#include "strata/Dialect/Tile/IR/TileChip.h"

#include "mlir/IR/Operation.h"

#include <cstdint>
#include <vector>

namespace strata::tile {

class ProgramOp;

/// Bytes of L1 a semaphore takes (one 32-bit word, aligned).
int64_t semaphoreBytes(const TileChip &chip);

struct L1Allocation {
  mlir::Operation *decl = nullptr; // tile.circular_buffer or tile.semaphore
  int64_t address = 0;             // the same on every core of the range
  int64_t bytes = 0;               // aligned size
};

/// The first buffer that does not fit: on core [row, col] it would end at
/// `end`, past the chip's L1.
struct L1Overflow {
  mlir::Operation *decl = nullptr;
  int64_t row = 0, col = 0;
  int64_t end = 0;
};

struct L1Layout {
  std::vector<L1Allocation> allocations; // declaration order
  std::optional<L1Overflow> overflow;    // set: allocations stop before it
  /// The allocation of `decl`, or nullptr.
  const L1Allocation *find(mlir::Operation *decl) const;
};

/// Lays out the program's buffers on `chip`.
L1Layout layoutL1(ProgramOp program, const TileChip &chip);

} // namespace strata::tile

#endif // STRATA_DIALECT_TILE_IR_TILEL1LAYOUT_H
