//===- EmulatorTest.cpp - Running small tile programs exactly -------------===//
#include "strata/Tile/Emulator/Emulator.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {

class EmulatorTest : public ::testing::Test {
protected:
  EmulatorTest() {
    context.loadDialect<TileDialect, StrataDialect, arith::ArithDialect,
                        scf::SCFDialect>();
    context.printOpOnDiagnostic(false);
    std::optional<std::string> text =
        hw::shippedDescriptionText("tile-wormhole-n150");
    chip = *hw::parseDescription(*text, "n150").description;
  }

  /// Parses `source` and prepares its program; fails the test otherwise.
  std::unique_ptr<Emulator> load(llvm::StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return nullptr;
    ProgramOp program = *module->getOps<ProgramOp>().begin();
    FailureOr<std::unique_ptr<Emulator>> emulator =
        Emulator::create(program, chip);
    EXPECT_TRUE(succeeded(emulator));
    return succeeded(emulator) ? std::move(*emulator) : nullptr;
  }

  MLIRContext context;
  hw::Description chip;
  OwningOpRef<ModuleOp> module;
};

/// Reads one f32 tile, packs it through Dst into a bf16 buffer, writes it.
const char *kCopyToBf16 = R"mlir(
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

float fromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

} // namespace

TEST_F(EmulatorTest, PackingRoundsToNearestEven) {
  std::unique_ptr<Emulator> emu = load(kCopyToBf16);
  ASSERT_TRUE(emu);
  std::vector<float> input(1024);
  for (int i = 0; i < 1024; ++i)
    // Halfway between two bf16 values: even mantissas stay, odd round up.
    input[i] = fromBits(0x3f800000u + (uint32_t(i % 4) << 16) + 0x8000u);
  ASSERT_TRUE(succeeded(emu->writeTensor("a", input)));
  ASSERT_TRUE(succeeded(emu->run()));
  FailureOr<std::vector<float>> out = emu->readTensor("c");
  ASSERT_TRUE(succeeded(out));
  for (int i = 0; i < 1024; ++i) {
    uint32_t mantissa = uint32_t(i % 4);
    uint32_t rounded = mantissa % 2 == 0 ? mantissa : mantissa + 1;
    EXPECT_EQ((*out)[i], fromBits(0x3f800000u + (rounded << 16))) << i;
  }
  // The trace: the compute kernel's wait was satisfied by the reader's push.
  const Trace &trace = emu->trace();
  ASSERT_EQ(trace.kernels.size(), 3u);
  const KernelTrace &compute = trace.kernels[1];
  ASSERT_EQ(compute.events.front().kind, EventKind::WaitFront);
  EventRef dep = compute.events.front().dep;
  EXPECT_EQ(dep.kernel, 0);
  EXPECT_EQ(trace.kernels[0].events[dep.index].kind, EventKind::PushBack);
  EXPECT_EQ(emu->stats().instances, 3);
}

TEST_F(EmulatorTest, TransposingUnpackSwapsRowsAndColumns) {
  // The copy with `transpose` on its unpack: element (r, c) of the output
  // is element (c, r) of the input (across faces too), and the unpack
  // event says it transposed (the cycle model prices one more pass).
  std::string source = kCopyToBf16;
  std::string from = "tile.unpack_tile @in[%c0] -> dst[%c0]";
  source.replace(source.find(from), from.size(), from + " transpose");
  std::unique_ptr<Emulator> emu = load(source);
  ASSERT_TRUE(emu);
  std::vector<float> input(1024);
  for (int i = 0; i < 1024; ++i)
    input[i] = float(i); // exact in bf16 below 256, rounded above
  ASSERT_TRUE(succeeded(emu->writeTensor("a", input)));
  ASSERT_TRUE(succeeded(emu->run()));
  FailureOr<std::vector<float>> out = emu->readTensor("c");
  ASSERT_TRUE(succeeded(out));
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c)
      EXPECT_EQ((*out)[r * 32 + c], fromBf16(toBf16(float(c * 32 + r))))
          << r << ", " << c;
  const KernelTrace &compute = emu->trace().kernels[1];
  auto unpack = llvm::find_if(compute.events, [](const Event &e) {
    return e.kind == EventKind::Unpack;
  });
  ASSERT_NE(unpack, compute.events.end());
  EXPECT_EQ(unpack->op, 1);
}

namespace {
/// Runs `emu`'s program on a (m x k) and b (k x n) of small integers (every
/// product and sum exact) and checks c = a b exactly.
void expectExactMatmul(Emulator &emu, int m, int k, int n) {
  std::vector<float> a(m * k), b(k * n);
  for (int i = 0; i < m * k; ++i)
    a[i] = float((i * 7) % 5) - 2.0f;
  for (int i = 0; i < k * n; ++i)
    b[i] = float((i * 3) % 7) - 3.0f;
  ASSERT_TRUE(succeeded(emu.writeTensor("a", a)));
  ASSERT_TRUE(succeeded(emu.writeTensor("b", b)));
  ASSERT_TRUE(succeeded(emu.run()));
  FailureOr<std::vector<float>> c = emu.readTensor("c");
  ASSERT_TRUE(succeeded(c));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int p = 0; p < k; ++p)
        want += a[i * k + p] * b[p * n + j];
      EXPECT_EQ((*c)[i * n + j], want) << i << "," << j;
    }
}
} // namespace

TEST_F(EmulatorTest, MatmulOverTwoTilesOfK) {
  // c (32x32) = a (32x64) x b (64x32): two tile matmuls into one Dst tile.
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @mm {
  tile.dram_tensor @a input : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<64x32xbf16, #tile.sharded<height, shard = [32, 32]>>
  tile.dram_tensor @c output : !tile.dram<32x32xf32, #tile.interleaved>
  tile.circular_buffer @a_in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b_in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @out cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xf32>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %k = %c0 to %c2 step %c1 {
      tile.cb_reserve_back @a_in, %c1
      tile.cb_reserve_back @b_in, %c1
      %pa = tile.cb_write_ptr @a_in
      %pb = tile.cb_write_ptr @b_in
      tile.noc_read_tile @a[%k] -> %pa
      tile.noc_read_tile @b[%k] -> %pb
      tile.noc_read_barrier
      tile.cb_push_back @a_in, %c1
      tile.cb_push_back @b_in, %c1
    }
  }
  tile.kernel compute cores [0, 0]-[0, 0] attributes {fidelity = "LoFi"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tile.acquire_dst
    scf.for %k = %c0 to %c2 step %c1 {
      tile.cb_wait_front @a_in, %c1
      tile.cb_wait_front @b_in, %c1
      tile.matmul_tiles @a_in[%c0], @b_in[%c0] -> dst[%c0]
      tile.cb_pop_front @a_in, %c1
      tile.cb_pop_front @b_in, %c1
    }
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c1
    tile.pack_tile dst[%c0] -> @out[%c0]
    tile.cb_push_back @out, %c1
    tile.release_dst
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
)mlir");
  ASSERT_TRUE(emu);
  expectExactMatmul(*emu, 32, 64, 32);
  int matmuls = 0;
  for (const Event &event : emu->trace().kernels[1].events)
    matmuls += event.kind == EventKind::Matmul;
  EXPECT_EQ(matmuls, 2);
  EXPECT_EQ(emu->trace().kernels[1].fidelity, "LoFi");
  EXPECT_EQ(emu->trace().kernels[1].matmulType, "bf16");
}

TEST_F(EmulatorTest, MatmulOperandKeptInItsSourceRegister) {
  // c (32x64) = a (32x32) x b (32x64): the second matmul reads the same
  // tile of a as the first, which stays in its source register: the trace
  // records one operand unpacked (2048 bytes) instead of two.
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @mm {
  tile.dram_tensor @a input : !tile.dram<32x32xbf16, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<32x64xbf16, #tile.interleaved>
  tile.dram_tensor @c output : !tile.dram<32x64xf32, #tile.interleaved>
  tile.circular_buffer @a_in cores [0, 0]-[0, 0] : !tile.cb<1x!tile.tile<32x32xbf16>>
  tile.circular_buffer @b_in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.circular_buffer @out cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xf32>>
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tile.cb_reserve_back @a_in, %c1
    %pa = tile.cb_write_ptr @a_in
    tile.noc_read_tile @a[%c0] -> %pa
    tile.noc_read_barrier
    tile.cb_push_back @a_in, %c1
    scf.for %n = %c0 to %c2 step %c1 {
      tile.cb_reserve_back @b_in, %c1
      %pb = tile.cb_write_ptr @b_in
      tile.noc_read_tile @b[%n] -> %pb
      tile.noc_read_barrier
      tile.cb_push_back @b_in, %c1
    }
  }
  tile.kernel compute cores [0, 0]-[0, 0] attributes {fidelity = "HiFi2"} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    tile.cb_wait_front @a_in, %c1
    tile.cb_wait_front @b_in, %c2
    tile.acquire_dst
    tile.matmul_tiles @a_in[%c0], @b_in[%c0] -> dst[%c0]
    tile.matmul_tiles @a_in[%c0], @b_in[%c1] -> dst[%c1]
    tile.commit_dst
    tile.wait_dst
    tile.cb_reserve_back @out, %c2
    tile.pack_tile dst[%c0] -> @out[%c0]
    tile.pack_tile dst[%c1] -> @out[%c1]
    tile.cb_push_back @out, %c2
    tile.release_dst
    tile.cb_pop_front @a_in, %c1
    tile.cb_pop_front @b_in, %c2
  }
  tile.kernel writer cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    scf.for %n = %c0 to %c2 step %c1 {
      tile.cb_wait_front @out, %c1
      %p = tile.cb_read_ptr @out
      tile.noc_write_tile %p -> @c[%n]
      tile.noc_write_barrier
      tile.cb_pop_front @out, %c1
    }
  }
}
)mlir");
  ASSERT_TRUE(emu);
  expectExactMatmul(*emu, 32, 32, 64);
  std::vector<const Event *> matmuls;
  for (const Event &event : emu->trace().kernels[1].events)
    if (event.kind == EventKind::Matmul)
      matmuls.push_back(&event);
  ASSERT_EQ(matmuls.size(), 2u);
  EXPECT_EQ(matmuls[0]->count, 2);
  EXPECT_EQ(matmuls[0]->bytes, 4096);
  EXPECT_EQ(matmuls[1]->count, 1);
  EXPECT_EQ(matmuls[1]->bytes, 2048);
}

TEST_F(EmulatorTest, DeadlockIsReportedNotHung) {
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @stuck {
  tile.circular_buffer @in cores [0, 0]-[0, 0] : !tile.cb<2x!tile.tile<32x32xbf16>>
  tile.kernel compute cores [0, 0]-[0, 0] {
    %c1 = arith.constant 1 : index
    tile.cb_wait_front @in, %c1
  }
}
)mlir");
  ASSERT_TRUE(emu);
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    for (Diagnostic &note : diag.getNotes())
      messages.push_back(note.str());
    return success();
  });
  EXPECT_TRUE(failed(emu->run()));
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0], "deadlock: all 1 unfinished kernels are blocked");
  EXPECT_EQ(messages[1], "compute kernel on core [0, 0] waits in "
                         "tile.cb_wait_front for 1 tile of @in (0 available)");
}

TEST_F(EmulatorTest, TensorsRoundTripThroughTheirLayouts) {
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @layouts {
  tile.dram_tensor @i input : !tile.dram<96x64xf32, #tile.interleaved>
  tile.dram_tensor @b input : !tile.dram<96x64xbf16, #tile.sharded<block, shard = [32, 32]>>
  tile.dram_tensor @w output : !tile.dram<64x96xf32, #tile.sharded<width, shard = [64, 32]>>
}
)mlir");
  ASSERT_TRUE(emu);
  ASSERT_EQ(emu->tensors().size(), 3u);
  EXPECT_EQ(emu->tensors()[2].role, TensorInfo::Role::Output);
  std::vector<float> values(96 * 64);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i) + 0.25f;
  for (const char *name : {"i", "b", "w"}) {
    ASSERT_TRUE(succeeded(emu->writeTensor(name, values)));
    FailureOr<std::vector<float>> back = emu->readTensor(name);
    ASSERT_TRUE(succeeded(back));
    for (size_t i = 0; i < values.size(); ++i)
      ASSERT_EQ((*back)[i],
                std::string(name) == "b" ? roundToBf16(values[i]) : values[i])
          << name << " " << i;
  }
  EXPECT_TRUE(succeeded(emu->run())); // no kernels: nothing to do
}

TEST_F(EmulatorTest, ScalarCodeComputesPageIndices) {
  // Each expression should give one page, 1 to 11; the writer stores a tile
  // of zeros (L1 starts zeroed) to each. Pages 0 and 12-15 stay NaN.
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @scalars {
  tile.dram_tensor @c output : !tile.dram<32x512xbf16, #tile.interleaved>
  tile.kernel writer cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %cm1 = arith.constant -1 : index
    %cm7 = arith.constant -7 : index
    %c7 = arith.constant 7 : index
    %fl = arith.floordivsi %cm7, %c2 : index
    %e1 = arith.addi %fl, %c5 : index
    tile.noc_write_tile %c0 -> @c[%e1]
    %ce = arith.ceildivsi %c7, %c2 : index
    %e2 = arith.subi %ce, %c2 : index
    tile.noc_write_tile %c0 -> @c[%e2]
    %c6 = arith.constant 6 : index
    %rm = arith.remsi %cm7, %c4 : index
    %e3 = arith.addi %rm, %c6 : index
    tile.noc_write_tile %c0 -> @c[%e3]
    %cm8 = arith.constant -8 : index
    %dv = arith.divsi %cm8, %cm1 : index
    %e4 = arith.subi %dv, %c4 : index
    tile.noc_write_tile %c0 -> @c[%e4]
    %w = arith.constant 261 : i32
    %t = arith.trunci %w : i32 to i8
    %e5 = arith.index_cast %t : i8 to index
    tile.noc_write_tile %c0 -> @c[%e5]
    %x = arith.constant 1.5 : f32
    %y = arith.constant 2.5 : f32
    %lt = arith.cmpf olt, %x, %y : f32
    %e6 = arith.select %lt, %c6, %c0 : index
    tile.noc_write_tile %c0 -> @c[%e6]
    %c7i = arith.constant 7 : i32
    %f = arith.sitofp %c7i : i32 to f32
    %one = arith.constant 1.0 : f32
    %g = arith.mulf %f, %one : f32
    %h = arith.fptosi %g : f32 to i32
    %e7 = arith.index_cast %h : i32 to index
    tile.noc_write_tile %c0 -> @c[%e7]
    %ones = arith.constant -1 : i8
    %five = arith.constant 5 : i8
    %sh = arith.shrui %ones, %five : i8
    %sh1 = arith.index_castui %sh : i8 to index
    %e8 = arith.addi %sh1, %c1 : index
    tile.noc_write_tile %c0 -> @c[%e8]
    %c3 = arith.constant 3 : index
    %c9 = arith.constant 9 : index
    %mn = arith.minui %cm1, %c9 : index
    %e9 = arith.maxsi %mn, %c3 : index
    tile.noc_write_tile %c0 -> @c[%e9]
    %e10 = scf.for %i = %c0 to %c5 step %c1 iter_args(%sum = %c0) -> (index) {
      %next = arith.addi %sum, %i : index
      scf.yield %next : index
    }
    tile.noc_write_tile %c0 -> @c[%e10]
    %true = arith.cmpi sgt, %c2, %c1 : index
    %e11 = scf.if %true -> (index) {
      %v = arith.constant 11 : index
      scf.yield %v : index
    } else {
      scf.yield %c0 : index
    }
    tile.noc_write_tile %c0 -> @c[%e11]
    tile.noc_write_barrier
  }
}
)mlir");
  ASSERT_TRUE(emu);
  std::vector<float> poison(32 * 512, std::numeric_limits<float>::quiet_NaN());
  ASSERT_TRUE(succeeded(emu->writeTensor("c", poison)));
  ASSERT_TRUE(succeeded(emu->run()));
  FailureOr<std::vector<float>> c = emu->readTensor("c");
  ASSERT_TRUE(succeeded(c));
  for (int page = 0; page < 16; ++page) {
    bool written = page >= 1 && page <= 11;
    float value = (*c)[5 * 512 + page * 32 + 3]; // an element of the page
    EXPECT_EQ(std::isnan(value), !written) << "page " << page;
  }
}

TEST_F(EmulatorTest, DivisionByZeroIsAnError) {
  std::unique_ptr<Emulator> emu = load(R"mlir(
tile.program @divide {
  tile.kernel reader cores [0, 0]-[0, 0] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %q = arith.divui %c1, %c0 : index
  }
}
)mlir");
  ASSERT_TRUE(emu);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(emu->run()));
  EXPECT_EQ(message, "reader kernel on core [0, 0]: division by zero");
}
