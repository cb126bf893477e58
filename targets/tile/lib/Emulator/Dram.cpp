//===- Dram.cpp - DRAM banks and where a tensor's pages are ---------------===//
#include "strata/Tile/Emulator/Dram.h"

using namespace strata::tile;

int64_t DramPlacement::bytesPerBank(int64_t pages, int64_t banks) const {
  if (!sharded)
    return (pages + banks - 1) / banks * pageBytes;
  int64_t shardPages = shardTileRows * shardTileCols;
  int64_t shards = pages / shardPages;
  return (shards + banks - 1) / banks * shardPages * pageBytes;
}

std::pair<int64_t, int64_t> DramPlacement::locate(int64_t page,
                                                  int64_t banks) const {
  if (!sharded)
    return {page % banks, base + page / banks * pageBytes};
  // Interleaved: pages round robin. Sharded: shards round robin, tiles of
  // a shard row-major inside it.
  int64_t row = page / tilesPerRow, col = page % tilesPerRow;
  int64_t shard = row / shardTileRows * shardsPerRow + col / shardTileCols;
  int64_t inShard = row % shardTileRows * shardTileCols + col % shardTileCols;
  int64_t shardBytes = shardTileRows * shardTileCols * pageBytes;
  return {shard % banks,
          base + shard / banks * shardBytes + inShard * pageBytes};
}

std::optional<int64_t> Dram::allocate(int64_t bytes) {
  int64_t base = (next + alignment - 1) / alignment * alignment;
  if (base + bytes > bankBytes)
    return std::nullopt;
  next = base + bytes;
  for (std::vector<uint8_t> &bank : data)
    bank.resize(next);
  return base;
}
