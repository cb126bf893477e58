//===- Dram.h - DRAM banks and where a tensor's pages are -------*- C++ -*-===//
//
// DRAM as the emulator holds it: one byte array per bank; a tensor
// reserves the same range in every bank and its layout maps each page (one
// tile) to a bank and an offset in that range.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_EMULATOR_DRAM_H
#define STRATA_TILE_EMULATOR_DRAM_H

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace strata::tile {

/// Where the pages of one tensor are.
struct DramPlacement {
  int64_t base = 0;      ///< offset of the tensor's range in every bank
  int64_t pageBytes = 0; ///< one tile
  int64_t tilesPerRow = 0;
  // Sharded layouts: the shard's size in tiles and shards per shard row.
  bool sharded = false;
  int64_t shardTileRows = 1, shardTileCols = 1, shardsPerRow = 1;

  /// Bytes the tensor needs in each of `banks` banks for `pages` pages.
  int64_t bytesPerBank(int64_t pages, int64_t banks) const;
  /// (bank, offset) of page `page`.
  std::pair<int64_t, int64_t> locate(int64_t page, int64_t banks) const;
};

class Dram {
public:
  Dram() = default;
  Dram(int64_t banks, int64_t bankBytes, int64_t alignment)
      : data(banks), bankBytes(bankBytes), alignment(alignment) {}

  /// Reserves `bytes` (aligned) at one offset in every bank; nullopt when a
  /// bank would overflow.
  std::optional<int64_t> allocate(int64_t bytes);
  uint8_t *at(int64_t bank, int64_t offset) {
    return data[bank].data() + offset;
  }
  int64_t banks() const { return int64_t(data.size()); }

private:
  std::vector<std::vector<uint8_t>> data;
  int64_t bankBytes = 0, alignment = 1, next = 0;
};

} // namespace strata::tile

#endif // STRATA_TILE_EMULATOR_DRAM_H
