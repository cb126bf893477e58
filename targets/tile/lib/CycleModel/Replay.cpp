//===- Replay.cpp - Replaying a trace in time -----------------------------===//
//
// Every kernel instance is one thread of events, except a compute kernel,
// which is two: the math side (unpack, matrix and vector engines, waiting for
// and popping inputs, acquire and commit) and the pack side (wait, pack,
// reserving and pushing outputs, release). A thread advances its clock by
// each event's cost; an event that waited in the emulator starts no earlier
// than the event that satisfied it (recorded in the trace, or the Dst
// handshake: the k-th wait_dst follows the k-th commit_dst, the k-th
// acquire_dst the (k - halves)-th release_dst). Threads are advanced in
// order of their clocks, so the NoCs and DRAM banks serve requests in time
// order.
//
//===----------------------------------------------------------------------===//
#include "strata/Tile/CycleModel/CycleModel.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>

using namespace strata;
using namespace strata::tile;

namespace {

struct Thread {
  int kernel = 0;
  bool packSide = false;
  int noc = 0;
  std::vector<int32_t> events; ///< indices into the kernel's events
  size_t pos = 0;
  double clock = 0;
  double lastRead = 0, lastWrite = 0; ///< arrival of its latest transfers
  int64_t acquires = 0, waits = 0;    ///< Dst handshakes so far
};

/// Whether an event of a compute kernel runs on its pack side.
bool onPackSide(EventKind kind) {
  switch (kind) {
  case EventKind::WaitDst:
  case EventKind::ReleaseDst:
  case EventKind::Pack:
  case EventKind::ReserveBack:
  case EventKind::PushBack:
    return true;
  default:
    return false;
  }
}

struct Replay {
  const Trace &trace;
  const CycleModelParams &p;
  CycleReport report;
  std::vector<Thread> threads;
  std::vector<std::vector<double>>
      done; ///< per kernel, per event; < 0: not yet
  std::vector<std::vector<int32_t>> commits, releases; ///< per kernel
  std::vector<double> engineFree, engineBusy;          ///< per core x 2 NoCs
  std::vector<double> bankFree, bankBusy;
  std::unordered_map<int64_t, std::vector<int>> waiters; ///< by event key
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  double tileElements;

  Replay(const Trace &trace, const CycleModelParams &p)
      : trace(trace), p(p), tileElements(double(p.tileRows * p.tileCols)) {}

  static int64_t key(EventRef ref) {
    return (int64_t(ref.kernel) << 32) | uint32_t(ref.index);
  }

  int64_t coreOf(const KernelTrace &k) const { return k.row * p.cols + k.col; }

  void build() {
    size_t n = trace.kernels.size();
    done.resize(n);
    commits.resize(n);
    releases.resize(n);
    for (size_t k = 0; k < n; ++k) {
      const KernelTrace &kernel = trace.kernels[k];
      done[k].assign(kernel.events.size(), -1.0);
      Thread main;
      main.kernel = int(k);
      main.noc = kernel.kind == TraceKernelKind::Writer ? 1 : 0;
      Thread pack = main;
      pack.packSide = true;
      for (size_t e = 0; e < kernel.events.size(); ++e) {
        EventKind kind = kernel.events[e].kind;
        if (kind == EventKind::CommitDst)
          commits[k].push_back(int32_t(e));
        if (kind == EventKind::ReleaseDst)
          releases[k].push_back(int32_t(e));
        bool packEvent =
            kernel.kind == TraceKernelKind::Compute && onPackSide(kind);
        (packEvent ? pack : main).events.push_back(int32_t(e));
      }
      threads.push_back(std::move(main));
      if (kernel.kind == TraceKernelKind::Compute)
        threads.push_back(std::move(pack));
    }
    int64_t cores = p.rows * p.cols;
    engineFree.assign(cores * 2, 0.0);
    engineBusy.assign(cores * 2, 0.0);
    bankFree.assign(p.dramBanks, 0.0);
    bankBusy.assign(p.dramBanks, 0.0);
    report.cores.resize(cores);
    for (int64_t c = 0; c < cores; ++c) {
      report.cores[c].row = c / p.cols;
      report.cores[c].col = c % p.cols;
    }
  }

  /// The event the next event of `t` waits for, if any.
  EventRef dependency(Thread &t, const Event &event) const {
    if (event.dep.valid())
      return event.dep;
    int halves = p.dstDoubleBuffered ? 2 : 1;
    if (event.kind == EventKind::WaitDst &&
        t.waits < int64_t(commits[t.kernel].size()))
      return EventRef{t.kernel, commits[t.kernel][t.waits]};
    if (event.kind == EventKind::AcquireDst && t.acquires >= halves)
      return EventRef{t.kernel, releases[t.kernel][t.acquires - halves]};
    return EventRef{};
  }

  /// A NoC transfer of `bytes` from the thread's core starting no earlier
  /// than its clock; `bank` >= 0 also occupies a DRAM bank. Returns when
  /// its last byte has passed both. The core's NoC takes transfers in issue
  /// order at the size's rate; a bank serves them in time order at its
  /// rate. A transfer waiting for a busy bank does not hold up the next
  /// one to another bank (the NoC and the DRAM controllers queue requests).
  double transfer(Thread &t, int64_t core, double bytes, int64_t bank) {
    double engine = bytes / p.nocRate(bytes);
    double &free = engineFree[core * 2 + t.noc];
    double start = std::max(t.clock, free);
    free = start + engine;
    engineBusy[core * 2 + t.noc] += engine;
    report.nocBytes += bytes;
    double end = start + engine;
    if (bank >= 0) {
      double serve = bytes / p.dramBankBytesPerCycle;
      double bankStart = std::max(start, bankFree[bank]);
      bankFree[bank] = bankStart + serve;
      bankBusy[bank] += serve;
      report.dramBytes += bytes;
      end = std::max(end, bankStart + serve);
    }
    return end;
  }

  /// The most hops from `core` to any core of the rectangle.
  int64_t farthest(int64_t core, int32_t corner0, int32_t corner1,
                   int noc) const {
    int64_t r0 = corner0 / p.cols, c0 = corner0 % p.cols;
    int64_t r1 = corner1 / p.cols, c1 = corner1 % p.cols;
    int64_t most = 0;
    for (int64_t r = r0; r <= r1; ++r)
      for (int64_t c = c0; c <= c1; ++c)
        most = std::max(most, p.hops(core, r * p.cols + c, noc));
    return most;
  }

  llvm::Error run() {
    build();
    for (size_t i = 0; i < threads.size(); ++i)
      if (!threads[i].events.empty())
        ready.push({0.0, int(i)});
    size_t finished = 0;
    for (const Thread &t : threads)
      finished += t.events.empty();

    while (!ready.empty()) {
      auto [time, id] = ready.top();
      ready.pop();
      Thread &t = threads[id];
      const KernelTrace &kernel = trace.kernels[t.kernel];
      int32_t index = t.events[t.pos];
      const Event &event = kernel.events[index];
      EventRef dep = dependency(t, event);
      if (dep.valid()) {
        double at = done[dep.kernel][dep.index];
        if (at < 0) {
          waiters[key(dep)].push_back(id);
          continue;
        }
        if (at > t.clock) {
          t.clock = at;
          ready.push({t.clock, id});
          continue;
        }
      }
      llvm::Expected<double> effect = execute(t, kernel, event);
      if (!effect)
        return effect.takeError();
      done[t.kernel][index] = *effect;
      auto waiting = waiters.find(key(EventRef{t.kernel, index}));
      if (waiting != waiters.end()) {
        for (int w : waiting->second)
          ready.push({threads[w].clock, w});
        waiters.erase(waiting);
      }
      if (++t.pos == t.events.size()) {
        ++finished;
        finish(t, kernel);
      } else {
        ready.push({t.clock, id});
      }
    }
    if (finished != threads.size())
      return llvm::createStringError(
          "the cycle model could not replay the trace: an event waits for "
          "one that never happens");
    summarize();
    return llvm::Error::success();
  }

  /// Advances `t` over `event`; returns the time its effect is visible.
  llvm::Expected<double> execute(Thread &t, const KernelTrace &kernel,
                                 const Event &event) {
    int64_t core = coreOf(kernel);
    CoreCycles &cycles = report.cores[core];
    // Two-operand ops (matmul, binary) keep both unpackers busy.
    double unpack = double(event.bytes) / p.unpackBothBytesPerCycle;
    auto compute = [&](double cost) {
      t.clock += cost;
      (t.packSide ? cycles.packBusy : cycles.mathBusy) += cost;
      return t.clock;
    };
    std::string accType = kernel.dstF32 ? "f32" : "bf16";
    switch (event.kind) {
    case EventKind::Matmul: {
      llvm::Expected<double> cost =
          p.matmulCycles(kernel.matmulType, accType, kernel.fidelity);
      if (!cost)
        return cost.takeError();
      cycles.matrixBusy += *cost;
      ++report.matmuls;
      report.fidelity = kernel.fidelity;
      // Operands still in their source registers are not unpacked (count:
      // the tiles unpacked); one operand keeps one unpacker busy.
      double feed =
          double(event.bytes) / (event.count == 2 ? p.unpackBothBytesPerCycle
                                                  : p.unpackOneBytesPerCycle);
      return compute(std::max(*cost, feed));
    }
    case EventKind::Eltwise: {
      double cost = tileElements / p.engineElementsPerCycle;
      if (VectorOp(event.op) == VectorOp::Mul) {
        // Multiplication takes the fidelity's passes, as matmul does.
        const CycleModelParams::Intrinsic &first = p.intrinsics.front();
        auto passes = first.passes.find(kernel.fidelity);
        if (passes != first.passes.end())
          cost *= double(passes->second);
      }
      return compute(std::max(cost, unpack));
    }
    case EventKind::Unpack:
      return compute(
          p.unpackCycles(tileElements, double(event.bytes), event.op == 1));
    case EventKind::Reduce: {
      std::string type = kernel.matmulType.empty() ? p.intrinsics.front().aType
                                                   : kernel.matmulType;
      llvm::Expected<double> cost =
          p.matmulCycles(type, accType, kernel.fidelity);
      if (!cost)
        return cost.takeError();
      // One operand: the reduction's scaler stays in its source register.
      return compute(
          std::max(*cost, double(event.bytes) / p.unpackOneBytesPerCycle));
    }
    case EventKind::Vector: {
      const char *name = vectorOpName(VectorOp(event.op));
      auto it = p.vectorInstructions.find(name);
      if (it == p.vectorInstructions.end())
        return llvm::createStringError(
            std::string("the description gives no vector_instructions for "
                        "'") +
            name + "'");
      return compute(tileElements / double(p.vectorLanes) * it->second /
                     double(p.vectorPipes));
    }
    case EventKind::Pack:
      return compute(double(event.bytes) / p.packBytesPerCycle);
    case EventKind::AcquireDst:
      ++t.acquires;
      return t.clock;
    case EventKind::WaitDst:
      ++t.waits;
      return t.clock;
    case EventKind::CommitDst:
    case EventKind::ReleaseDst:
      return t.clock;
    case EventKind::ReserveBack:
    case EventKind::PushBack:
    case EventKind::WaitFront:
    case EventKind::PopFront:
    case EventKind::SemWait:
    case EventKind::SemSet:
      t.clock += p.l1Latency;
      return t.clock;
    case EventKind::ReadDram:
    case EventKind::WriteDram: {
      bool read = event.kind == EventKind::ReadDram;
      t.clock += p.nocIssueCycles;
      double left = transfer(t, core, double(event.bytes), event.peer);
      double latency = p.dramHops() * p.hopLatency;
      double arrival = left + latency + (read ? p.dramLatency : 0.0);
      (read ? t.lastRead : t.lastWrite) =
          std::max(read ? t.lastRead : t.lastWrite, arrival);
      return arrival;
    }
    case EventKind::ReadL1: {
      t.clock += p.nocIssueCycles;
      double left = transfer(t, core, double(event.bytes), -1);
      // The request travels to the peer, the data back.
      double arrival = left + double(p.hops(core, event.peer, t.noc) +
                                     p.hops(event.peer, core, t.noc)) *
                                  p.hopLatency;
      t.lastRead = std::max(t.lastRead, arrival);
      return arrival;
    }
    case EventKind::WriteL1:
    case EventKind::WriteMulticast:
    case EventKind::SemInc:
    case EventKind::SemSetMulticast: {
      t.clock += p.nocIssueCycles;
      bool data = event.kind == EventKind::WriteL1 ||
                  event.kind == EventKind::WriteMulticast;
      double bytes = data ? double(event.bytes) : p.flitBytes;
      double left = transfer(t, core, bytes, -1);
      int64_t hops = event.peer2 >= 0
                         ? farthest(core, event.peer, event.peer2, t.noc)
                         : p.hops(core, event.peer, t.noc);
      double arrival = left + double(hops) * p.hopLatency;
      t.lastWrite = std::max(t.lastWrite, arrival);
      return arrival;
    }
    case EventKind::ReadBarrier:
      t.clock = std::max(t.clock, t.lastRead);
      return t.clock;
    case EventKind::WriteBarrier:
      t.clock = std::max(t.clock, t.lastWrite);
      return t.clock;
    }
    return t.clock;
  }

  /// A thread's end: its clock, or later when its transfers land later.
  void finish(Thread &t, const KernelTrace &kernel) {
    double end = std::max({t.clock, t.lastRead, t.lastWrite});
    CoreCycles &cycles = report.cores[coreOf(kernel)];
    double &slot = kernel.kind == TraceKernelKind::Reader    ? cycles.reader
                   : kernel.kind == TraceKernelKind::Compute ? cycles.compute
                                                             : cycles.writer;
    slot = std::max(slot, end);
    report.cycles = std::max(report.cycles, end);
  }

  void summarize() {
    report.chip = p.chip;
    report.clockHz = p.clockHz;
    report.gridCores = p.rows * p.cols;
    report.dramBytesPerCycle = p.dramBankBytesPerCycle * double(p.dramBanks);
    for (const CoreCycles &core : report.cores) {
      report.matrixBusy += core.matrixBusy;
      report.computeBound =
          std::max({report.computeBound, core.mathBusy, core.packBusy});
    }
    for (double busy : engineBusy)
      report.nocBound = std::max(report.nocBound, busy);
    for (double busy : bankBusy)
      report.dramBound = std::max(report.dramBound, busy);
    report.bound = "compute";
    double most = report.computeBound;
    if (report.nocBound > most) {
      most = report.nocBound;
      report.bound = "noc";
    }
    if (report.dramBound > most)
      report.bound = "dram";
    // Matmul work and the fastest fidelity's cycles, for the peak.
    std::string type = "bf16";
    for (const KernelTrace &kernel : trace.kernels)
      if (!kernel.matmulType.empty())
        type = kernel.matmulType;
    report.matmulFlops = 2.0 * double(p.tileRows) * double(p.tileCols) *
                         double(p.tileCols) * double(report.matmuls);
    if (const CycleModelParams::Intrinsic *intrinsic =
            p.intrinsicFor(type, "f32")) {
      int64_t fewest = 1;
      if (!intrinsic->passes.empty()) {
        fewest = intrinsic->passes.begin()->second;
        for (const auto &entry : intrinsic->passes)
          fewest = std::min(fewest, entry.second);
      }
      report.lofiCyclesPerMatmul = intrinsic->cycles * double(fewest) *
                                   double(p.tileRows) / double(intrinsic->m) *
                                   double(p.tileCols) / double(intrinsic->n) *
                                   double(p.tileCols) / double(intrinsic->k);
    }
    std::vector<CoreCycles> used;
    for (const CoreCycles &core : report.cores)
      if (core.end() > 0)
        used.push_back(core);
    report.cores = std::move(used);
  }
};

} // namespace

double CoreCycles::end() const { return std::max({reader, compute, writer}); }

CycleReport strata::tile::sequenceReport(llvm::ArrayRef<CycleReport> parts) {
  CycleReport sum;
  double lofi = 0;
  for (const CycleReport &part : parts) {
    sum.chip = part.chip;
    sum.clockHz = part.clockHz;
    sum.gridCores = part.gridCores;
    sum.dramBytesPerCycle = part.dramBytesPerCycle;
    sum.cycles += part.cycles;
    sum.matmuls += part.matmuls;
    sum.matmulFlops += part.matmulFlops;
    if (part.matmuls > 0 && sum.fidelity.empty())
      sum.fidelity = part.fidelity;
    else if (part.matmuls > 0 && sum.fidelity != part.fidelity)
      sum.fidelity += "/" + part.fidelity;
    sum.matrixBusy += part.matrixBusy;
    lofi += double(part.matmuls) * part.lofiCyclesPerMatmul;
    sum.dramBytes += part.dramBytes;
    sum.nocBytes += part.nocBytes;
    sum.computeBound += part.computeBound;
    sum.nocBound += part.nocBound;
    sum.dramBound += part.dramBound;
  }
  sum.lofiCyclesPerMatmul = sum.matmuls > 0 ? lofi / double(sum.matmuls) : 0;
  sum.bound = "compute";
  if (sum.nocBound > sum.computeBound)
    sum.bound = "noc";
  if (sum.dramBound > std::max(sum.computeBound, sum.nocBound))
    sum.bound = "dram";
  return sum;
}

double CycleReport::matrixUtilization() const {
  return cycles > 0 ? matrixBusy / (cycles * double(gridCores)) : 0.0;
}

double CycleReport::matrixUtilizationOfFastest() const {
  return cycles > 0 ? double(matmuls) * lofiCyclesPerMatmul /
                          (cycles * double(gridCores))
                    : 0.0;
}

double CycleReport::dramUtilization() const {
  return cycles > 0 ? dramBytes / (cycles * dramBytesPerCycle) : 0.0;
}

llvm::Expected<CycleReport>
strata::tile::predictCycles(const Trace &trace,
                            const CycleModelParams &params) {
  if (trace.rows != params.rows || trace.cols != params.cols)
    return llvm::createStringError("the trace's grid differs from the chip's");
  Replay replay(trace, params);
  if (llvm::Error error = replay.run())
    return std::move(error);
  return std::move(replay.report);
}
