//===- CycleModelTest.cpp - The cycle model against hand-computed cases ---===//
//
// Traces are built by hand and replayed on the shipped n150 description:
// 1 GHz; matmul 16 cycles x fidelity passes (HiFi4: 64); L1 256 B/cycle,
// unpackers 64 B/cycle alone and 80 together, packers 64 B/cycle, 8 cycles
// per buffer or semaphore op; NoC issue 5 cycles, 9 cycles per
// hop on a 10x12 torus, 18.5 B/cycle for 2 KiB transfers, 0.8 for 32 B;
// DRAM banks of 288e9 / 12 = 24 B/cycle, 600 cycles latency, 10 hops away
// on average; the matrix engine's elementwise rate 8 x 16 per cycle; the
// vector engine 32 lanes.
//
//===----------------------------------------------------------------------===//
#include "strata/Tile/CycleModel/CycleModel.h"

#include <gtest/gtest.h>

using namespace strata;
using namespace strata::tile;

namespace {

hw::Description shipped(const char *name) {
  std::optional<std::string> text = hw::shippedDescriptionText(name);
  EXPECT_TRUE(text.has_value());
  hw::LoadResult result = hw::parseDescription(*text, name);
  EXPECT_TRUE(bool(result)) << result.formatErrors();
  return *result.description;
}

CycleModelParams n150() {
  llvm::Expected<CycleModelParams> params =
      CycleModelParams::fromDescription(shipped("tile-wormhole-n150"));
  EXPECT_TRUE(bool(params)) << llvm::toString(params.takeError());
  return *params;
}

Event event(EventKind kind, int64_t bytes = 0, int32_t peer = -1,
            EventRef dep = {}) {
  Event e(kind);
  e.bytes = bytes;
  e.peer = peer;
  e.count = 1;
  e.dep = dep;
  return e;
}

KernelTrace kernel(TraceKernelKind kind, int64_t row, int64_t col,
                   std::vector<Event> events,
                   const std::string &fidelity = "HiFi4") {
  KernelTrace k;
  k.kind = kind;
  k.row = row;
  k.col = col;
  k.fidelity = fidelity;
  k.matmulType = "bf16";
  k.events = std::move(events);
  return k;
}

CycleReport replay(std::vector<KernelTrace> kernels,
                   const CycleModelParams &params = n150()) {
  Trace trace;
  trace.rows = params.rows;
  trace.cols = params.cols;
  trace.kernels = std::move(kernels);
  llvm::Expected<CycleReport> report = predictCycles(trace, params);
  EXPECT_TRUE(bool(report)) << llvm::toString(report.takeError());
  return *report;
}

/// One Dst round of `matmuls` matmuls, packed to one tile.
std::vector<Event> matmulRound(int matmuls) {
  std::vector<Event> events = {event(EventKind::AcquireDst)};
  for (int i = 0; i < matmuls; ++i) {
    events.push_back(event(EventKind::Matmul, 4096));
    events.back().count = 2; // both operands unpacked
  }
  for (EventKind kind :
       {EventKind::CommitDst, EventKind::WaitDst, EventKind::ReserveBack})
    events.push_back(event(kind));
  events.push_back(event(EventKind::Pack, 2048));
  events.push_back(event(EventKind::PushBack));
  events.push_back(event(EventKind::ReleaseDst));
  return events;
}

} // namespace

TEST(CycleModelParams, ReadFromTheDescription) {
  CycleModelParams p = n150();
  EXPECT_EQ(p.rows, 8);
  EXPECT_EQ(p.cols, 8);
  EXPECT_DOUBLE_EQ(p.l1BytesPerCycle, 256.0);
  EXPECT_DOUBLE_EQ(p.dramBankBytesPerCycle, 24.0);
  EXPECT_DOUBLE_EQ(p.engineElementsPerCycle, 128.0);
  EXPECT_EQ(p.vectorLanes, 32);
  EXPECT_DOUBLE_EQ(p.dramHops(), 10.0);
  EXPECT_TRUE(p.dstDoubleBuffered);
  // The GEMM_FLOPS cycles per 32x32x32 tile matmul.
  EXPECT_DOUBLE_EQ(*p.matmulCycles("bf16", "f32", "LoFi"), 16.0);
  EXPECT_DOUBLE_EQ(*p.matmulCycles("bf16", "f32", "HiFi2"), 32.0);
  EXPECT_DOUBLE_EQ(*p.matmulCycles("bf16", "bf16", "HiFi3"), 48.0);
  EXPECT_DOUBLE_EQ(*p.matmulCycles("bf16", "f32", "HiFi4"), 64.0);
  // f32 operands read as TF32: only HiFi4 (four passes) keeps their bits.
  EXPECT_DOUBLE_EQ(*p.matmulCycles("f32", "f32", "HiFi4"), 64.0);
  llvm::Expected<double> lofi = p.matmulCycles("f32", "f32", "LoFi");
  ASSERT_FALSE(bool(lofi));
  EXPECT_EQ(llvm::toString(lofi.takeError()),
            "intrinsic 'matmul_tiles_tf32_f32acc' has no fidelity 'LoFi'");
  llvm::Expected<double> i8 = p.matmulCycles("i8", "i32", "HiFi4");
  ASSERT_FALSE(bool(i8));
  EXPECT_EQ(llvm::toString(i8.takeError()),
            "chip 'tile-wormhole-n150' has no matrix intrinsic for i8 "
            "operands");

  llvm::Expected<CycleModelParams> p150 =
      CycleModelParams::fromDescription(shipped("tile-blackhole-p150"));
  ASSERT_TRUE(bool(p150));
  EXPECT_EQ(p150->cols, 13);
  EXPECT_NEAR(p150->dramBankBytesPerCycle, 5.12e11 / 8 / 1.35e9, 1e-9);
}

TEST(CycleModelParams, NocRateInterpolatesInLogSize) {
  CycleModelParams p = n150();
  EXPECT_DOUBLE_EQ(p.nocRate(2048), 18.5);
  // Between 2048 (18.5) and 4096 (22.6), at log2(1.5) of the way.
  EXPECT_NEAR(p.nocRate(3072), 18.5 + std::log2(1.5) * 4.1, 1e-12);
  EXPECT_DOUBLE_EQ(p.nocRate(16), 0.4);       // proportional below 32 B
  EXPECT_DOUBLE_EQ(p.nocRate(1 << 20), 28.5); // the last point above
}

TEST(CycleModelParams, HopsOnTheTorus) {
  CycleModelParams p = n150();
  EXPECT_EQ(p.hops(0, 3, 0), 3);         // east on NoC 0
  EXPECT_EQ(p.hops(0, 3, 1), 7);         // around the 10-wide ring on NoC 1
  EXPECT_EQ(p.hops(0, 2 * 8 + 1, 0), 3); // one column, two rows
  EXPECT_EQ(p.hops(2 * 8 + 1, 0, 0), 9 + 10);
}

TEST(CycleModel, MatmulsThenPack) {
  // Math: 4 x max(64, unpack 4096 / 80) = 256; pack side from the commit:
  // reserve 8, pack 2048 / 64 = 32, push 8.
  CycleReport r =
      replay({kernel(TraceKernelKind::Compute, 0, 0, matmulRound(4))});
  EXPECT_DOUBLE_EQ(r.cycles, 304.0);
  EXPECT_DOUBLE_EQ(r.matrixBusy, 256.0);
  EXPECT_EQ(r.matmuls, 4);
  EXPECT_EQ(r.bound, "compute");
  EXPECT_DOUBLE_EQ(r.computeBound, 256.0);
  EXPECT_DOUBLE_EQ(r.matrixUtilization(), 256.0 / (304.0 * 64));
  EXPECT_DOUBLE_EQ(r.matrixUtilizationOfFastest(), 64.0 / (304.0 * 64));
  ASSERT_EQ(r.cores.size(), 1u);
  EXPECT_DOUBLE_EQ(r.cores[0].compute, 304.0);

  // At LoFi a matmul is 16 cycles, shorter than unpacking its operands
  // (51.2): the feed bounds it.
  CycleReport lofi =
      replay({kernel(TraceKernelKind::Compute, 0, 0, matmulRound(4), "LoFi")});
  EXPECT_DOUBLE_EQ(lofi.cycles, 4 * 51.2 + 48.0);
}

TEST(CycleModel, DoubleBufferedDstOverlapsMathAndPack) {
  // Two rounds of one matmul: with two halves the second acquire does not
  // wait for the first release.
  std::vector<Event> rounds;
  for (int i = 0; i < 2; ++i)
    for (EventKind kind :
         {EventKind::AcquireDst, EventKind::Matmul, EventKind::CommitDst,
          EventKind::WaitDst, EventKind::Pack, EventKind::ReleaseDst})
      rounds.push_back(event(kind, kind == EventKind::Pack ? 2048 : 4096));
  // Math 0-64-128; pack (2048 / 64 = 32) 64-96, 128-160.
  EXPECT_DOUBLE_EQ(
      replay({kernel(TraceKernelKind::Compute, 0, 0, rounds)}).cycles, 160.0);
  // One half: the second acquire waits for the release at 96.
  CycleModelParams single = n150();
  single.dstDoubleBuffered = false;
  EXPECT_DOUBLE_EQ(
      replay({kernel(TraceKernelKind::Compute, 0, 0, rounds)}, single).cycles,
      192.0);
}

TEST(CycleModel, DramReadAndBarrier) {
  // Issue 5; the NoC takes 2048 / 18.5 cycles (the bank 2048 / 24, less);
  // then 10 hops of 9 cycles and the DRAM latency of 600.
  double arrival = 5 + 2048 / 18.5 + 90 + 600;
  CycleReport r = replay({kernel(
      TraceKernelKind::Reader, 0, 0,
      {event(EventKind::ReadDram, 2048, 0), event(EventKind::ReadBarrier)})});
  EXPECT_DOUBLE_EQ(r.cycles, arrival);
  EXPECT_DOUBLE_EQ(r.dramBytes, 2048.0);
  EXPECT_DOUBLE_EQ(r.dramBound, 2048 / 24.0);
  EXPECT_DOUBLE_EQ(r.nocBound, 2048 / 18.5);
  EXPECT_EQ(r.bound, "noc");
  EXPECT_DOUBLE_EQ(r.dramUtilization(), 2048.0 / (arrival * 288.0));
}

TEST(CycleModel, ReadsOfOneBankQueue) {
  // Two cores read from bank 3 at once: the second is served after the
  // first (5 + 2048 / 24), then takes 2048 / 24 more.
  std::vector<Event> read = {event(EventKind::ReadDram, 2048, 3),
                             event(EventKind::ReadBarrier)};
  CycleReport r = replay({kernel(TraceKernelKind::Reader, 0, 0, read),
                          kernel(TraceKernelKind::Reader, 0, 1, read)});
  EXPECT_DOUBLE_EQ(r.cycles, 5 + 2 * 2048 / 24.0 + 90 + 600);
  EXPECT_DOUBLE_EQ(r.dramBound, 2 * 2048 / 24.0);
  EXPECT_EQ(r.bound, "dram");
  // Different banks do not queue.
  std::vector<Event> other = {event(EventKind::ReadDram, 2048, 4),
                              event(EventKind::ReadBarrier)};
  EXPECT_DOUBLE_EQ(replay({kernel(TraceKernelKind::Reader, 0, 0, read),
                           kernel(TraceKernelKind::Reader, 0, 1, other)})
                       .cycles,
                   5 + 2048 / 18.5 + 90 + 600);
}

TEST(CycleModel, CircularBufferDelaysTheConsumer) {
  // Reader: reserve 8, issue 5, 2048 / 18.5 on the NoC, 690 of latency,
  // push 8. Compute: waits for the push, 8; unpack max(1024 / 128,
  // 2048 / 64) = 32; pop 8.
  double push = 8 + 5 + 2048 / 18.5 + 690 + 8;
  CycleReport r = replay(
      {kernel(TraceKernelKind::Reader, 0, 0,
              {event(EventKind::ReserveBack),
               event(EventKind::ReadDram, 2048, 1),
               event(EventKind::ReadBarrier), event(EventKind::PushBack)}),
       kernel(TraceKernelKind::Compute, 0, 0,
              {event(EventKind::WaitFront, 0, -1, EventRef{0, 3}),
               event(EventKind::AcquireDst), event(EventKind::Unpack, 2048),
               event(EventKind::CommitDst), event(EventKind::WaitDst),
               event(EventKind::ReleaseDst), event(EventKind::PopFront)})});
  EXPECT_DOUBLE_EQ(r.cycles, push + 8 + 32 + 8);
  ASSERT_EQ(r.cores.size(), 1u);
  EXPECT_DOUBLE_EQ(r.cores[0].reader, push);
}

TEST(CycleModel, SemaphoreAcrossCores) {
  // Issue 5, one 32-byte flit at 0.8 B/cycle (40), 3 hops east on NoC 0;
  // the waiting core then takes 8.
  auto program = [](TraceKernelKind signaller) {
    Event inc = event(EventKind::SemInc, 0, 3);
    return std::vector<KernelTrace>{
        kernel(signaller, 0, 0, {inc}),
        kernel(TraceKernelKind::Reader, 0, 3,
               {event(EventKind::SemWait, 0, -1, EventRef{0, 0})})};
  };
  EXPECT_DOUBLE_EQ(replay(program(TraceKernelKind::Reader)).cycles,
                   5 + 40 + 27 + 8);
  // A writer uses the other NoC: 7 hops the other way round the ring.
  EXPECT_DOUBLE_EQ(replay(program(TraceKernelKind::Writer)).cycles,
                   5 + 40 + 63 + 8);
}

TEST(CycleModel, VectorOpsCostInstructionsPerLaneRow) {
  // exp: 24 instructions per row of 32 lanes, 32 rows.
  Event exp = event(EventKind::Vector);
  exp.op = uint8_t(VectorOp::Exp);
  CycleReport r = replay(
      {kernel(TraceKernelKind::Compute, 0, 0,
              {event(EventKind::AcquireDst), exp, event(EventKind::CommitDst),
               event(EventKind::WaitDst), event(EventKind::ReleaseDst)})});
  EXPECT_DOUBLE_EQ(r.cycles, 32 * 24.0);
  EXPECT_NE(formatCycleReport(r, false).find("bound: compute"),
            std::string::npos);
}

TEST(CycleModel, ScalarOpsAndTanhCostTheirInstructions) {
  // A scalar operand is an immediate of the vector engine: c - x costs
  // rsub's 4 instructions per lane row, min 5, tanh 20 (n150's estimates).
  auto cost = [](VectorOp op) {
    Event e = event(EventKind::Vector);
    e.op = uint8_t(op);
    return replay(
               {kernel(TraceKernelKind::Compute, 0, 0,
                       {event(EventKind::AcquireDst), e,
                        event(EventKind::CommitDst), event(EventKind::WaitDst),
                        event(EventKind::ReleaseDst)})})
        .cycles;
  };
  EXPECT_DOUBLE_EQ(cost(VectorOp::Rsub), 32 * 4.0);
  EXPECT_DOUBLE_EQ(cost(VectorOp::Min), 32 * 5.0);
  EXPECT_DOUBLE_EQ(cost(VectorOp::Tanh), 32 * 20.0);
}

TEST(CycleModel, ErrorsInsteadOfGuesses) {
  CycleModelParams p = n150();
  p.vectorInstructions.erase("gelu");
  Event gelu = event(EventKind::Vector);
  gelu.op = uint8_t(VectorOp::Gelu);
  Trace trace;
  trace.rows = 8;
  trace.cols = 8;
  trace.kernels = {kernel(TraceKernelKind::Compute, 0, 0, {gelu})};
  llvm::Expected<CycleReport> r = predictCycles(trace, p);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()),
            "the description gives no vector_instructions for 'gelu'");

  hw::Description d = shipped("tile-wormhole-n150");
  d.targetOptions.erase("vector_instructions");
  llvm::Expected<CycleModelParams> missing =
      CycleModelParams::fromDescription(d);
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError())
                .find("/target_options/vector_instructions"),
            std::string::npos);
}

TEST(CycleModelParams, TransposingUnpackAddsAnEnginePass) {
  // An f32 tile: max(1024 / 128, 4096 / 64) = 64 cycles (one unpacker reads
  // 64 B per cycle); transposed, one more pass of the engine (8).
  CycleModelParams p = n150();
  EXPECT_DOUBLE_EQ(p.unpackCycles(1024, 4096, /*transpose=*/false), 64.0);
  EXPECT_DOUBLE_EQ(p.unpackCycles(1024, 4096, /*transpose=*/true), 72.0);
  // A bf16 tile: the read (2048 / 64 = 32) and the pass (8).
  EXPECT_DOUBLE_EQ(p.unpackCycles(1024, 2048, /*transpose=*/true), 40.0);
}

TEST(CycleModelParams, UnpackersAndPackersHaveTheirOwnRates) {
  // tt-isa-documentation's L1 rates: one unpacker 4 x 16 B per cycle, both
  // together 5 x 16 B, the packers 4 x 16 B; L1 itself 16 banks x 16 B.
  CycleModelParams p = n150();
  EXPECT_DOUBLE_EQ(p.unpackOneBytesPerCycle, 64.0);
  EXPECT_DOUBLE_EQ(p.unpackBothBytesPerCycle, 80.0);
  EXPECT_DOUBLE_EQ(p.packBytesPerCycle, 64.0);
  EXPECT_DOUBLE_EQ(p.l1BytesPerCycle, 256.0);
}

TEST(CycleModel, MatmulFeedLimitsLowFidelity) {
  // Four HiFi2 matmuls (32 cycles each) of bf16 tiles: the first unpacks
  // both (4096 B at 80 B/cycle: 51.2 cycles), the next three only B, A
  // staying in its source register (2048 B at 64 B/cycle: 32 cycles).
  auto matmul = [](int64_t bytes, int32_t operands) {
    Event e = event(EventKind::Matmul, bytes);
    e.count = operands;
    return e;
  };
  std::vector<Event> events = {event(EventKind::AcquireDst), matmul(4096, 2),
                               matmul(2048, 1), matmul(2048, 1),
                               matmul(2048, 1)};
  CycleReport r =
      replay({kernel(TraceKernelKind::Compute, 0, 0, events, "HiFi2")});
  EXPECT_DOUBLE_EQ(r.cycles, 51.2 + 3 * 32.0);
  EXPECT_DOUBLE_EQ(r.matrixBusy, 4 * 32.0);
  // At HiFi4 (64 cycles) the feed is hidden.
  r = replay({kernel(TraceKernelKind::Compute, 0, 0, events, "HiFi4")});
  EXPECT_DOUBLE_EQ(r.cycles, 4 * 64.0);
}

namespace {
/// The report of a program of `cycles` on n150 with these bounds and DRAM
/// bytes.
CycleReport programReport(double cycles, double computeBound, double nocBound,
                          double dramBound, double dramBytes) {
  CycleReport r;
  r.chip = "tile-wormhole-n150";
  r.clockHz = 1e9;
  r.gridCores = 64;
  r.dramBytesPerCycle = 288;
  r.cycles = cycles;
  r.computeBound = computeBound;
  r.nocBound = nocBound;
  r.dramBound = dramBound;
  r.dramBytes = dramBytes;
  return r;
}
} // namespace

TEST(CycleModel, ProgramsInOrderAddUp) {
  // Two programs one after the other: times, work and each kind's bound
  // add; the bound is the largest sum (DRAM 50 + 10 > compute 30 + 20).
  CycleReport a = programReport(100, 30, 5, 50, 1000);
  a.matmuls = 4;
  a.matmulFlops = 4 * 65536;
  a.fidelity = "HiFi4";
  a.matrixBusy = 256;
  a.lofiCyclesPerMatmul = 16;
  CycleReport b = programReport(60, 20, 40, 10, 500);
  CycleReport sum = sequenceReport({a, b});
  EXPECT_DOUBLE_EQ(sum.cycles, 160.0);
  EXPECT_EQ(sum.matmuls, 4);
  EXPECT_EQ(sum.fidelity, "HiFi4");
  EXPECT_DOUBLE_EQ(sum.matrixBusy, 256.0);
  EXPECT_DOUBLE_EQ(sum.lofiCyclesPerMatmul, 16.0);
  EXPECT_DOUBLE_EQ(sum.dramBytes, 1500.0);
  EXPECT_DOUBLE_EQ(sum.computeBound, 50.0);
  EXPECT_DOUBLE_EQ(sum.nocBound, 45.0);
  EXPECT_DOUBLE_EQ(sum.dramBound, 60.0);
  EXPECT_EQ(sum.bound, "dram");
  EXPECT_DOUBLE_EQ(sum.matrixUtilization(), 256.0 / (160.0 * 64));
  EXPECT_DOUBLE_EQ(sum.dramUtilization(), 1500.0 / (160.0 * 288));
  EXPECT_TRUE(sum.cores.empty());
}

TEST(CycleModel, GatheredRowsCostPerTransfer) {
  // Half of a convolution's f32 A tile (32 rows, one face column of 16
  // channels): read row by row, 32 transfers of 64 B at
  // 1.5 B/cycle; read in runs of 8 rows, 4 transfers of 512 B at 8.9.
  auto reads = [](int transfers, int64_t bytes) {
    std::vector<Event> events;
    for (int i = 0; i < transfers; ++i)
      events.push_back(event(EventKind::ReadDram, bytes, i % 12));
    events.push_back(event(EventKind::ReadBarrier));
    return replay({kernel(TraceKernelKind::Reader, 0, 0, events)});
  };
  CycleReport rows = reads(32, 64), runs = reads(4, 512);
  EXPECT_DOUBLE_EQ(rows.nocBound, 32 * 64 / 1.5);
  EXPECT_DOUBLE_EQ(runs.nocBound, 4 * 512 / 8.9);
  EXPECT_DOUBLE_EQ(rows.dramBytes, runs.dramBytes);
}
