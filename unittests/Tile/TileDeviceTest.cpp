//===- TileDeviceTest.cpp - The runtime API on the emulator ---------------===//
#include "strata/Tile/Runtime/TileDevice.h"
#include "strata/Tile/Emulator/Numerics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace strata;
using namespace strata::runtime;
using namespace strata::tile;

namespace {

/// c (bf16) = a (f32), one tile through Dst.
const char *kCopy = R"mlir(
tile.program @copy {
  tile.dram_tensor @a input : !tile.dram<32x32xf32, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<32x32xbf16, #tile.interleaved>
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.circular_buffer @out cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_reserve_back @in, %c1
    %p = tile.cb_write_ptr @in
    tile.noc_read_tile @a[%c0] -> %p
    tile.noc_read_barrier
    tile.cb_push_back @in, %c1
  }
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @in, %c1
    tile.acquire_dst
    tile.unpack_tile @in[%c0] -> dst[%c0]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c1
    tile.pack_tile dst[%c0] -> @out[%c0]
    tile.cb_push_back @out, %c1
    tile.release_dst
    tile.cb_pop_front @in, %c1
  }
  tile.kernel writer cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @out, %c1
    %p = tile.cb_read_ptr @out
    tile.noc_write_tile %p -> @c[%c0]
    tile.noc_write_barrier
    tile.cb_pop_front @out, %c1
  }
}
)mlir";

std::unique_ptr<Device> n150Device() {
  std::optional<std::string> text =
      hw::shippedDescriptionText("tile-wormhole-n150");
  hw::LoadResult chip = hw::parseDescription(*text, "n150");
  llvm::Expected<std::unique_ptr<Device>> device =
      createTileDevice(*chip.description);
  EXPECT_TRUE(bool(device)) << llvm::toString(device.takeError());
  return std::move(*device);
}

/// Writes `text` to a temporary .mlir file; returns its path.
std::string writeTemporary(llvm::StringRef text) {
  llvm::SmallString<128> path;
  int fd;
  EXPECT_FALSE(
      llvm::sys::fs::createTemporaryFile("tile-device", "mlir", fd, path));
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << text;
  return path.str().str();
}

/// One f32 tile of distinct values, i / 7.
std::vector<float> ramp() {
  std::vector<float> a(1024);
  for (int i = 0; i < 1024; ++i)
    a[i] = float(i) / 7.0f;
  return a;
}

Signature copySignature() {
  Signature signature;
  signature.name = "copy";
  signature.inputs = {{ElementType::F32, {32, 32}}};
  signature.outputs = {{ElementType::BF16, {32, 32}}};
  return signature;
}

} // namespace

TEST(TileDevice, LaunchesAProgramAndPredictsItsTime) {
  std::unique_ptr<Device> device = n150Device();
  ASSERT_TRUE(device);
  EXPECT_EQ(device->getName(), "tile emulator (tile-wormhole-n150)");
  std::string path = writeTemporary(kCopy);
  llvm::Expected<std::unique_ptr<Executable>> executable = device->load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  EXPECT_TRUE((*executable)->hasFunction("copy"));
  EXPECT_FALSE((*executable)->hasFunction("other"));

  std::vector<float> a = ramp();
  auto in = device->allocate(4096);
  auto out = device->allocate(2048);
  ASSERT_TRUE(in && out);
  ASSERT_FALSE(bool(device->copyToDevice(**in, a.data(), 4096)));
  std::unique_ptr<Timer> timer = device->createTimer();
  timer->start();
  llvm::Error error =
      device->launch(**executable, copySignature(), {in->get(), out->get()});
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  double seconds = timer->stop();
  // Read (at least the DRAM latency of 600 cycles), unpack, pack, write.
  EXPECT_GT(seconds, 600e-9);
  EXPECT_LT(seconds, 10e-6);

  std::vector<uint16_t> c(1024);
  ASSERT_FALSE(bool(device->copyToHost(c.data(), **out, 2048)));
  for (int i = 0; i < 1024; ++i)
    EXPECT_EQ(c[i], toBf16(a[i])) << i;
}

TEST(TileDevice, LaunchErrorsNameTheMismatch) {
  std::unique_ptr<Device> device = n150Device();
  std::string path = writeTemporary(kCopy);
  llvm::Expected<std::unique_ptr<Executable>> executable = device->load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(executable));
  auto in = device->allocate(4096);
  auto out = device->allocate(4096);

  Signature wrongType = copySignature();
  wrongType.outputs[0].type = ElementType::F32;
  llvm::Error error =
      device->launch(**executable, wrongType, {in->get(), out->get()});
  EXPECT_EQ(llvm::toString(std::move(error)),
            "tensor @c is 32x32xbf16; the launch gives 32x32xf32");

  Signature missing = copySignature();
  missing.outputs.clear();
  error = device->launch(**executable, missing, {in->get()});
  EXPECT_EQ(llvm::toString(std::move(error)),
            "@copy has 1 input and 1 output tensors; the launch gives 1 and 0 "
            "with 1 buffers");

  Signature unknown = copySignature();
  unknown.name = "nope";
  error = device->launch(**executable, unknown, {in->get(), out->get()});
  EXPECT_EQ(llvm::toString(std::move(error)), "no tile.program @nope");

  EXPECT_EQ(llvm::toString(device->copyToDevice(**in, nullptr, 8192)),
            "copy of 8192 bytes into a buffer of 4096");
}

TEST(TileDevice, LoadChecksTheProgramAgainstTheChip) {
  std::unique_ptr<Device> device = n150Device();
  std::string path = writeTemporary(R"mlir(
tile.program @big {
  tile.circular_buffer @b cores [0, 0]-[0, 0] : !tile.cb<1000x!tile.tile<32x32xf32>>
}
)mlir");
  llvm::Expected<std::unique_ptr<Executable>> executable = device->load(path);
  llvm::sys::fs::remove(path);
  ASSERT_FALSE(bool(executable));
  std::string message = llvm::toString(executable.takeError());
  EXPECT_NE(message.find("does not verify for tile-wormhole-n150"),
            std::string::npos);
  EXPECT_NE(message.find("does not fit in L1 of core [0, 0]"),
            std::string::npos)
      << message;
}

namespace {
/// kCopy as part `name` of @twice, from `in` (bound to `inBind`) to `out`
/// (bound to `outBind`).
std::string copyPart(const std::string &name, const std::string &in,
                     const std::string &inBind, const std::string &out,
                     const std::string &outBind) {
  std::string text = kCopy;
  auto replace = [&](const std::string &from, const std::string &to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("tile.program @copy {",
          "tile.program @" + name + " attributes {part_of = \"twice\"} {");
  replace("@a input : !tile.dram<32x32xf32",
          "@a input {bind = \"" + inBind + "\"} : !tile.dram<32x32x" + in);
  replace("@c output : !tile.dram<32x32xbf16",
          "@c output {bind = \"" + outBind + "\"} : !tile.dram<32x32x" + out);
  replace("!tile.tile<32x32xbf16>", "OUT");
  replace("!tile.tile<32x32xf32>", "!tile.tile<32x32x" + in + ">");
  replace("OUT", "!tile.tile<32x32x" + out + ">");
  return text;
}
} // namespace

TEST(TileDevice, RunsTheProgramsOfASplitFunctionInOrder) {
  // f32 -> bf16 scratch -> f32: the output is the input rounded to bf16,
  // the prediction the sum of both programs'.
  std::unique_ptr<Device> device = n150Device();
  std::string path =
      writeTemporary(copyPart("twice.0", "f32", "arg0", "bf16", "tmp0") +
                     copyPart("twice.1", "bf16", "tmp0", "f32", "arg1"));
  llvm::Expected<std::unique_ptr<Executable>> executable = device->load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  EXPECT_TRUE((*executable)->hasFunction("twice"));

  std::vector<float> a = ramp();
  auto in = device->allocate(4096);
  auto out = device->allocate(4096);
  ASSERT_FALSE(bool(device->copyToDevice(**in, a.data(), 4096)));
  Signature signature;
  signature.name = "twice";
  signature.inputs = {{ElementType::F32, {32, 32}}};
  signature.outputs = {{ElementType::F32, {32, 32}}};
  llvm::Error error =
      device->launch(**executable, signature, {in->get(), out->get()});
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  std::vector<float> c(1024);
  ASSERT_FALSE(bool(device->copyToHost(c.data(), **out, 4096)));
  for (int i = 0; i < 1024; ++i)
    EXPECT_EQ(c[i], fromBf16(toBf16(a[i]))) << i;
  std::string report = device->lastLaunchReport();
  EXPECT_NE(report.find("2 programs in order:"), std::string::npos) << report;
  EXPECT_NE(report.find("program @twice.1:"), std::string::npos) << report;

  // A part reading a scratch tensor no earlier part wrote.
  path = writeTemporary(copyPart("twice.0", "f32", "tmp1", "f32", "arg1"));
  executable = device->load(path);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  error = device->launch(**executable, signature, {in->get(), out->get()});
  EXPECT_EQ(llvm::toString(std::move(error)),
            "@twice.0 reads @tmp1 before any program writes it");
}
