//===- DramTest.cpp - Where the pages of a DRAM tensor are ----------------===//
#include "strata/Tile/Emulator/Dram.h"

#include <gtest/gtest.h>

using namespace strata::tile;

TEST(DramPlacement, InterleavedRoundRobin) {
  DramPlacement p;
  p.base = 4096;
  p.pageBytes = 2048;
  p.tilesPerRow = 32;
  EXPECT_EQ(p.locate(0, 12), std::make_pair(int64_t(0), int64_t(4096)));
  EXPECT_EQ(p.locate(11, 12), std::make_pair(int64_t(11), int64_t(4096)));
  EXPECT_EQ(p.locate(12, 12), std::make_pair(int64_t(0), int64_t(6144)));
  EXPECT_EQ(p.locate(29, 12), std::make_pair(int64_t(5), int64_t(8192)));
  EXPECT_EQ(p.bytesPerBank(25, 12), 3 * 2048);
}

TEST(DramPlacement, ShardsRoundRobinTilesInside) {
  // A 4x4-tile tensor in 2x2-tile (block) shards over 3 banks.
  DramPlacement p;
  p.pageBytes = 100;
  p.tilesPerRow = 4;
  p.sharded = true;
  p.shardTileRows = 2;
  p.shardTileCols = 2;
  p.shardsPerRow = 2;
  // Tile (0, 0): shard 0, bank 0, first tile.
  EXPECT_EQ(p.locate(0, 3), std::make_pair(int64_t(0), int64_t(0)));
  // Tile (1, 1) = page 5: shard 0, its tile 3.
  EXPECT_EQ(p.locate(5, 3), std::make_pair(int64_t(0), int64_t(300)));
  // Tile (0, 2) = page 2: shard 1 in bank 1.
  EXPECT_EQ(p.locate(2, 3), std::make_pair(int64_t(1), int64_t(0)));
  // Tile (3, 3) = page 15: shard 3, bank 0, second shard there, tile 3.
  EXPECT_EQ(p.locate(15, 3), std::make_pair(int64_t(0), int64_t(700)));
  // 4 shards of 400 bytes over 3 banks: two per bank at most.
  EXPECT_EQ(p.bytesPerBank(16, 3), 800);
}

TEST(Dram, AllocatesAlignedAndRefusesOverflow) {
  Dram dram(2, 1000, 64);
  EXPECT_EQ(dram.allocate(100), std::optional<int64_t>(0));
  EXPECT_EQ(dram.allocate(100), std::optional<int64_t>(128));
  EXPECT_EQ(dram.allocate(800), std::nullopt);
  *dram.at(1, 127) = 7;
  EXPECT_EQ(*dram.at(1, 127), 7);
}
