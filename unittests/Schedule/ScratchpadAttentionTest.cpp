//===- ScratchpadAttentionTest.cpp - One-pass attention on a grid ---------===//
//
// The attention model on the shipped tile-grid description and on copies
// of it with one field changed: units, key step and multicast follow the
// shape and the description, the scratchpad is accounted exactly (every
// buffer by the formula the program uses), and what does not fit is said
// with every buffer.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "strata/Schedule/ScratchpadAttention.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::test;

namespace {

const char *kChip = "tile-wormhole-n150";

/// The shipped description with `edit` applied to its JSON.
hw::Description edited(const std::function<void(nlohmann::json &)> &edit) {
  return editedShipped(kChip, edit);
}

void setCapacity(nlohmann::json &doc, int64_t bytes) {
  for (nlohmann::json &mem : doc["memory"])
    if (mem["kind"] == "scratchpad")
      mem["capacity_bytes"] = bytes;
}

/// `batch` heads of `queries` x `dim` against `keys` keys, all `type`; an
/// exponential takes 768 cycles per tile (the n150's 24 instructions per
/// row of 32 lanes).
AttentionShape shape(int64_t batch, int64_t queries, int64_t keys, int64_t dim,
                     const std::string &type = "f32") {
  AttentionShape a;
  a.batch = batch;
  a.queries = queries;
  a.keys = keys;
  a.headDim = dim;
  a.valueDim = dim;
  a.qType = a.kType = a.vType = a.outType = type;
  a.expCyclesPerTile = 768;
  return a;
}

AttentionSchedule plan(const AttentionShape &a, const hw::Description &chip) {
  llvm::Expected<AttentionSchedule> s =
      chooseScratchpadAttention(a, chip, "attention");
  EXPECT_TRUE(bool(s)) << (s ? "" : llvm::toString(s.takeError()));
  return s ? *s : AttentionSchedule();
}

std::string failure(const AttentionShape &a, const hw::Description &chip) {
  llvm::Expected<AttentionSchedule> s =
      chooseScratchpadAttention(a, chip, "attention");
  EXPECT_FALSE(bool(s));
  return s ? "" : llvm::toString(s.takeError());
}

/// Tiles of buffer `name`, or -1.
int64_t tiles(const AttentionSchedule &s, const std::string &name) {
  for (const AttentionSchedule::Buffer &b : s.buffers)
    if (b.name == name)
      return b.tiles;
  return -1;
}

TEST(ScratchpadAttention, ExampleFillsTheGridAndMulticasts) {
  // examples/models/attention.mlir: 8 heads of 256 x 64, f32.
  hw::Description chip = loadShipped(kChip);
  AttentionSchedule s = plan(shape(8, 256, 256, 64), chip);
  EXPECT_EQ(s.matrixIntrinsic, "matmul_tiles_tf32_f32acc");
  EXPECT_EQ(s.rows, 8); // a head per row of cores
  EXPECT_EQ(s.cols, 8); // a query tile-row per core
  EXPECT_TRUE(s.multicast);
  EXPECT_EQ(8 % s.keyTiles, 0);
  EXPECT_EQ(s.bound, "compute");
  EXPECT_GT(s.cycles, 0);
}

TEST(ScratchpadAttention, AccountsEveryBufferExactly) {
  hw::Description chip = loadShipped(kChip);
  AttentionSchedule s = plan(shape(8, 256, 256, 64), chip);
  std::vector<std::string> names;
  for (const AttentionSchedule::Buffer &b : s.buffers)
    names.push_back(b.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"q", "qs", "k", "kt", "v", "s", "p", "m",
                                      "l", "alpha", "o", "out"}));
  int64_t kb = s.keyTiles, dt = 2;
  EXPECT_EQ(tiles(s, "q"), dt);
  EXPECT_EQ(tiles(s, "k"), s.stages * kb * dt);
  EXPECT_EQ(tiles(s, "kt"), kb * dt);
  EXPECT_EQ(tiles(s, "v"), s.stages * kb * dt);
  EXPECT_EQ(tiles(s, "s"), kb);
  EXPECT_EQ(tiles(s, "o"), dt);
  EXPECT_EQ(tiles(s, "out"), 2 * dt);
  int64_t all = 0;
  for (const AttentionSchedule::Buffer &b : s.buffers) {
    EXPECT_EQ(b.bytes, b.tiles * 32 * 32 * 4) << b.name;
    all += b.tiles;
  }
  // Four 16-byte semaphores: ready and valid of K and of V.
  EXPECT_EQ(s.syncBytes, 4 * 16);
  EXPECT_EQ(s.footprintBytes, all * 4096 + 64);
}

TEST(ScratchpadAttention, Bf16OperandsKeepF32Scores) {
  hw::Description chip = loadShipped(kChip);
  AttentionSchedule s = plan(shape(2, 128, 128, 64, "bf16"), chip);
  EXPECT_EQ(s.matrixIntrinsic, "matmul_tiles_bf16_f32acc");
  for (const AttentionSchedule::Buffer &b : s.buffers) {
    bool f32 = b.name == "s" || b.name == "m" || b.name == "l" ||
               b.name == "alpha" || b.name == "o";
    EXPECT_EQ(b.type, f32 ? "f32" : "bf16") << b.name;
  }
}

TEST(ScratchpadAttention, OneQueryRowPerHeadDoesNotMulticast) {
  hw::Description chip = loadShipped(kChip);
  AttentionSchedule s = plan(shape(8, 32, 256, 64), chip);
  EXPECT_EQ(s.cols, 1);
  EXPECT_EQ(s.rows, 8);
  EXPECT_FALSE(s.multicast);
  EXPECT_EQ(s.syncBytes, 0);
}

TEST(ScratchpadAttention, SlowDramMakesMulticastPay) {
  // 2 heads of 256 queries in bf16 read their K and V on every core at
  // the n150's bandwidth; with a tenth of it, reading once per row wins.
  AttentionShape a = shape(2, 256, 128, 64, "bf16");
  AttentionSchedule fast = plan(a, loadShipped(kChip));
  AttentionSchedule slow = plan(a, edited([](nlohmann::json &doc) {
                                  for (nlohmann::json &mem : doc["memory"])
                                    if (mem["kind"] == "dram")
                                      mem["bandwidth_bytes_per_s"] = 2.88e10;
                                }));
  EXPECT_FALSE(fast.multicast);
  EXPECT_TRUE(slow.multicast);
  EXPECT_GT(slow.cycles, fast.cycles);
}

TEST(ScratchpadAttention, SmallerScratchpadTakesSmallerSteps) {
  AttentionShape a = shape(8, 256, 256, 64);
  AttentionSchedule full = plan(a, loadShipped(kChip));
  // Room for one key tile per step and two copies, and a little more.
  hw::Description tight = edited(
      [](nlohmann::json &doc) { setCapacity(doc, 25 * 4096 + 64 + 2048); });
  AttentionSchedule s = plan(a, tight);
  EXPECT_EQ(s.keyTiles, 1);
  EXPECT_EQ(s.stages, 2);
  EXPECT_LE(s.footprintBytes, 25 * 4096 + 64 + 2048);
  EXPECT_GE(full.keyTiles, s.keyTiles);
}

TEST(ScratchpadAttention, OverflowNamesEveryBuffer) {
  hw::Description tiny =
      edited([](nlohmann::json &doc) { setCapacity(doc, 64 * 1024); });
  std::string message = failure(shape(8, 256, 256, 64), tiny);
  EXPECT_NE(message.find("'attention' does not fit in scratchpad 'l1'"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("k 4 x f32 tiles = 16384 B"), std::string::npos)
      << message;
  EXPECT_NE(message.find("out 4 x f32 tiles = 16384 B"), std::string::npos)
      << message;
  EXPECT_NE(message.find("more than the 65536 bytes"), std::string::npos)
      << message;
}

TEST(ScratchpadAttention, KeysMustBeWholeTiles) {
  std::string message = failure(shape(2, 64, 50, 32), loadShipped(kChip));
  EXPECT_NE(message.find("50 keys are not whole tiles of 32"),
            std::string::npos)
      << message;
}

} // namespace
