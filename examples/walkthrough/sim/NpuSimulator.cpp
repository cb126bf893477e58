//===- NpuSimulator.cpp - Functional and cycle simulator of the npu -------===//
//
// Ops run one at a time in program order on host copies of every buffer;
// each is also placed on its core's engine (DMA queues, array, vector unit)
// after its dependences, which gives the cycles and the hazard check.
//
//===----------------------------------------------------------------------===//
#include "NpuSimulator.h"

#include "Npu/NpuDialect.h"
#include "strata/rt/HalfFloat.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace npu;

SimParams npu::simParams(const strata::hw::Description &chip) {
  SimParams p;
  if (chip.clockHz > 0)
    p.clockHz = chip.clockHz;
  const strata::hw::MemoryLevel *dram = nullptr, *spad = nullptr;
  for (const strata::hw::MemoryLevel &level : chip.memory) {
    if (!dram && level.kind == "dram")
      dram = &level;
    if (!spad && level.kind == "scratchpad" && level.engine)
      spad = &level;
  }
  if (!dram && !chip.memory.empty())
    dram = &chip.memory.front(); // levels are listed farthest first
  if (dram) {
    if (dram->bandwidthBytesPerS > 0)
      p.dramBytesPerCycle = dram->bandwidthBytesPerS / p.clockHz;
    p.dramLatencyCycles = dram->latencyCycles;
    p.dramAlignmentBytes = std::max<int64_t>(1, dram->alignmentBytes);
  }
  if (spad) {
    p.scratchpadBytes = p.accumulatorBytes = spad->capacityBytes;
    p.dmaSetupCycles = spad->engine->setupLatencyCycles;
    if (spad->engine->bytesPerCycle > 0)
      p.dmaBytesPerCycle = spad->engine->bytesPerCycle;
    p.dmaQueues = std::max<int64_t>(1, spad->engine->count);
    p.cores = std::max<int64_t>(1, chip.totalUnits(spad->owner));
  }
  if (!chip.matrix.empty()) {
    const strata::hw::MatrixIntrinsic &array = chip.matrix.front();
    p.arrayM = std::max<int64_t>(1, array.m);
    p.arrayN = std::max<int64_t>(1, array.n);
    p.arrayK = std::max<int64_t>(1, array.k);
    if (array.cyclesPerInstruction > 0)
      p.cyclesPerInstruction = array.cyclesPerInstruction;
    if (const auto *acc = chip.findMemory(array.accumulator))
      p.accumulatorBytes = acc->capacityBytes;
  }
  if (chip.vector)
    p.vectorLanes = std::max<int64_t>(1, chip.vector->widthBits / 32);
  const nlohmann::json &options = chip.targetOptions;
  if (!options.is_object())
    return p;
  auto fill = options.find("array_fill_cycles");
  if (fill != options.end() && fill->is_number())
    p.arrayFillCycles = fill->get<double>();
  auto costs = options.find("vector_cycles");
  if (costs != options.end() && costs->is_object())
    for (const auto &item : costs->items())
      if (item.value().is_number())
        p.vectorCycles[item.key()] = item.value().get<double>();
  return p;
}

std::string SimReport::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  double seconds = cycles / clockHz, peak = cycles * peakMacsPerCycle;
  bool ms = seconds >= 1e-4; // short runs in microseconds
  os << llvm::format("npu: %.0f cycles (%.3f %s at %g GHz), systolic array "
                     "%.1f%% of peak (%d cores)\n",
                     cycles, seconds * (ms ? 1e3 : 1e6), ms ? "ms" : "us",
                     clockHz / 1e9, peak > 0 ? 100 * usefulMacs / peak : 0.0,
                     cores);
  double span = std::max(cycles, 1.0);
  os << llvm::format("  array busy %.1f%%, DMA %.3f MB (%.1f%% of DRAM "
                     "bandwidth), %lld ops\n",
                     100 * arrayBusyCycles / (span * cores), dramBytes / 1e6,
                     100 * dramBytes / (span * dramBytesPerCycle),
                     (long long)ops);
  return text;
}

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

namespace {
enum class Elt { F32, BF16, F16, F64, I8, I32, I64 };

template <typename T> T get(const uint8_t *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}
template <typename T> void put(uint8_t *p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

/// A float stored into an integer truncates toward zero (as arith.fptosi),
/// saturating instead of overflowing; NaN gives 0.
int64_t toInt(double v) {
  if (std::isnan(v))
    return 0;
  return v >= 0x1p63 ? INT64_MAX : v <= -0x1p63 ? INT64_MIN : int64_t(v);
}

/// A buffer the simulated function touches, with its host copy.
struct Mem {
  uint8_t *data = nullptr;
  Elt type = Elt::F32;
  int64_t bytes = 4;   // per element
  int64_t base = 0;    // byte offset in its core's memory (0 for DRAM)
  int64_t core = -1;   // -1: DRAM
  unsigned region = 0; // where its hazards are tracked
  std::string name;

  bool isFloat() const { return type <= Elt::F64; }
  double loadF(int64_t i) const {
    const uint8_t *q = data + i * bytes;
    return type == Elt::F32    ? get<float>(q)
           : type == Elt::BF16 ? strata::rt::fromBF16(get<uint16_t>(q))
           : type == Elt::F16  ? strata::rt::fromF16(get<uint16_t>(q))
           : type == Elt::F64  ? get<double>(q)
                               : double(loadI(i));
  }
  int64_t loadI(int64_t i) const {
    const uint8_t *q = data + i * bytes;
    return type == Elt::I8    ? get<int8_t>(q)
           : type == Elt::I32 ? get<int32_t>(q)
           : type == Elt::I64 ? get<int64_t>(q)
                              : toInt(loadF(i));
  }
  /// Floats round through f32 (the vector unit's format) into bf16 and f16.
  void storeF(int64_t i, double v) {
    uint8_t *q = data + i * bytes;
    if (type == Elt::F32)
      put(q, float(v));
    else if (type == Elt::BF16 || type == Elt::F16)
      put(q, type == Elt::BF16 ? strata::rt::toBF16(float(v))
                               : strata::rt::toF16(float(v)));
    else if (type == Elt::F64)
      put(q, v);
    else
      storeI(i, toInt(v));
  }
  /// Integers wrap to the element's width.
  void storeI(int64_t i, int64_t v) {
    uint8_t *q = data + i * bytes;
    if (type == Elt::I8)
      put(q, int8_t(v));
    else if (type == Elt::I32)
      put(q, int32_t(v));
    else if (type == Elt::I64)
      put(q, v);
    else
      storeF(i, double(v));
  }
};

std::optional<Elt> eltOf(Type t) {
  if (t.isF32() || t.isBF16() || t.isF16() || t.isF64())
    return t.isF32()    ? Elt::F32
           : t.isBF16() ? Elt::BF16
           : t.isF16()  ? Elt::F16
                        : Elt::F64;
  if (t.isInteger(8) || t.isInteger(32) || t.isInteger(64))
    return t.isInteger(8) ? Elt::I8 : t.isInteger(32) ? Elt::I32 : Elt::I64;
  return std::nullopt;
}

int64_t product(ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

/// Visits the rows (all dimensions but the innermost) of `sizes` in
/// row-major order, calling row(offsets) with each view's element offset at
/// the row's start; views are [offset, stride per dimension...].
template <size_t N, typename F>
void forEachRow(ArrayRef<int64_t> sizes,
                const std::array<ArrayRef<int64_t>, N> &views, F &&row) {
  std::array<int64_t, N> offs;
  for (size_t v = 0; v < N; ++v)
    offs[v] = views[v][0];
  int rank = int(sizes.size()), d;
  llvm::SmallVector<int64_t, 4> idx(std::max(rank - 1, 0), 0);
  do {
    row(offs);
    for (d = rank - 2; d >= 0; --d) { // an odometer over the outer dims
      for (size_t v = 0; v < N; ++v)
        offs[v] += views[v][d + 1];
      if (++idx[d] < sizes[d])
        break;
      for (size_t v = 0; v < N; ++v)
        offs[v] -= sizes[d] * views[v][d + 1];
      idx[d] = 0;
    }
  } while (d >= 0);
}

//===----------------------------------------------------------------------===//
// Hazards
//===----------------------------------------------------------------------===//

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/// The bytes a view touches: off + sum of j_d * stride_d + [0, run), with
/// the dimensions canonical (positive strides, outermost first, contiguous
/// ones merged), so that a tile of a row-major matrix is one run per row.
struct Box {
  int64_t off, run, lo, hi;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> dims; // size, stride
  llvm::SmallVector<int64_t, 4> reach; // extent of the dims inside d + run

  Box(const Mem &mem, ArrayRef<int64_t> sizes, ArrayRef<int64_t> view)
      : off(mem.base + view[0] * mem.bytes), run(mem.bytes) {
    for (size_t d = 0; d < sizes.size(); ++d) {
      int64_t stride = view[d + 1] * mem.bytes;
      if (stride < 0)
        off += (sizes[d] - 1) * stride, stride = -stride;
      if (sizes[d] > 1 && stride != 0)
        dims.push_back({sizes[d], stride});
    }
    llvm::sort(dims, [](auto &a, auto &b) { return a.second > b.second; });
    for (size_t d = 1; d < dims.size();) // merge where outer = inner's end
      if (dims[d - 1].second == dims[d].first * dims[d].second)
        dims[d - 1] = {dims[d - 1].first * dims[d].first, dims[d].second},
                 dims.erase(dims.begin() + d);
      else
        ++d;
    while (!dims.empty() && dims.back().second == run)
      run *= dims.back().first, dims.pop_back();
    reach.assign(dims.size(), run - 1);
    for (int d = int(dims.size()) - 2; d >= 0; --d)
      reach[d] = reach[d + 1] + (dims[d + 1].first - 1) * dims[d + 1].second;
    lo = off;
    hi = off + (dims.empty() ? run - 1
                             : reach[0] + (dims[0].first - 1) * dims[0].second);
  }
  int64_t runs() const {
    int64_t n = 1;
    for (auto dim : dims)
      n *= dim.first;
    return n;
  }
  /// Whether every byte of `o` is in this box (exact for a dense box).
  bool covers(const Box &o) const {
    return (off == o.off && run == o.run && dims == o.dims) ||
           (dims.empty() && lo <= o.lo && o.hi <= hi);
  }
  /// Whether a run of the box from dimension d on, placed at `at`, touches
  /// [l, h] and, given `o`, a run of `o`: only the indices of d that can
  /// reach [l, h] are visited.
  bool meets(size_t d, int64_t at, int64_t l, int64_t h, const Box *o) const {
    if (d == dims.size())
      return at <= h && at + run - 1 >= l &&
             (!o || o->meets(0, o->off, at, at + run - 1, nullptr));
    auto [size, stride] = dims[d];
    int64_t j = std::max<int64_t>(0, -floorDiv(at + reach[d] - l, stride));
    for (int64_t last = std::min(size - 1, floorDiv(h - at, stride)); j <= last;
         ++j)
      if (meets(d + 1, at + j * stride, l, h, o))
        return true;
    return false;
  }
  bool overlaps(const Box &o) const {
    if (hi < o.lo || o.hi < lo)
      return false;
    // Runs of the box with fewer, inside the other's bounds, against it.
    return runs() <= o.runs() ? meets(0, off, o.lo, o.hi, &o)
                              : o.meets(0, o.off, lo, hi, this);
  }
};

/// An earlier op's access, live until `end`.
struct Access {
  Box box;
  double end;
  Operation *op;
};

/// A core's scratchpad or accumulator (by byte), or one DRAM buffer.
struct Region {
  std::vector<Access> reads, writes;
  int64_t core = -1; // the core whose engines reach it; -1: all DMA queues
};

/// One access of the op being simulated.
struct Use {
  Mem *mem;
  Box box;
  bool write;
};

//===----------------------------------------------------------------------===//
// The simulator
//===----------------------------------------------------------------------===//

using FloatFn = double (*)(double, double, double);
using IntFn = int64_t (*)(int64_t, int64_t, int64_t);
uint64_t u(int64_t v) { return uint64_t(v); } // wrapping arithmetic

/// The vector unit's functions on (in0, in1, scalar), by name. Integer ones
/// wrap; division by zero gives 0; the transcendental ones (no IntFn) and
/// any op with a float operand compute in double. Max and min propagate NaN;
/// maxnum and minnum (arith.maxnumf, minnumf) return the other operand.
const struct {
  llvm::StringLiteral name;
  FloatFn f;
  IntFn i;
} functions[] = {
    {"add", [](double x, double y, double) { return x + y; },
     [](int64_t x, int64_t y, int64_t) { return int64_t(u(x) + u(y)); }},
    {"sub", [](double x, double y, double) { return x - y; },
     [](int64_t x, int64_t y, int64_t) { return int64_t(u(x) - u(y)); }},
    {"mul", [](double x, double y, double) { return x * y; },
     [](int64_t x, int64_t y, int64_t) { return int64_t(u(x) * u(y)); }},
    {"div", [](double x, double y, double) { return x / y; },
     [](int64_t x, int64_t y, int64_t) {
       return y == 0 ? 0 : y == -1 ? int64_t(0 - u(x)) : x / y;
     }},
    {"max",
     [](double x, double y, double) { return x > y || std::isnan(x) ? x : y; },
     [](int64_t x, int64_t y, int64_t) { return std::max(x, y); }},
    {"min",
     [](double x, double y, double) { return x < y || std::isnan(x) ? x : y; },
     [](int64_t x, int64_t y, int64_t) { return std::min(x, y); }},
    {"maxnum", [](double x, double y, double) { return std::fmax(x, y); },
     [](int64_t x, int64_t y, int64_t) { return std::max(x, y); }},
    {"minnum", [](double x, double y, double) { return std::fmin(x, y); },
     [](int64_t x, int64_t y, int64_t) { return std::min(x, y); }},
    {"copy", [](double x, double, double) { return x; },
     [](int64_t x, int64_t, int64_t) { return x; }},
    {"exp", [](double x, double, double) { return std::exp(x); }, nullptr},
    {"tanh", [](double x, double, double) { return std::tanh(x); }, nullptr},
    {"erf", [](double x, double, double) { return std::erf(x); }, nullptr},
    {"sqrt", [](double x, double, double) { return std::sqrt(x); }, nullptr},
    {"rsqrt", [](double x, double, double) { return 1 / std::sqrt(x); },
     nullptr},
    {"recip", [](double x, double, double) { return 1 / x; }, nullptr},
    {"neg", [](double x, double, double) { return -x; },
     [](int64_t x, int64_t, int64_t) { return int64_t(0 - u(x)); }},
    {"abs", [](double x, double, double) { return std::fabs(x); },
     [](int64_t x, int64_t, int64_t) { return x < 0 ? int64_t(0 - u(x)) : x; }},
    {"fill", [](double, double, double s) { return s; },
     [](int64_t, int64_t, int64_t s) { return s; }},
    {"adds", [](double x, double, double s) { return x + s; },
     [](int64_t x, int64_t, int64_t s) { return int64_t(u(x) + u(s)); }},
    {"muls", [](double x, double, double s) { return x * s; },
     [](int64_t x, int64_t, int64_t s) { return int64_t(u(x) * u(s)); }},
};

struct Engines {
  std::vector<double> dma;
  double array = 0, vector = 0;
};

class Simulator {
public:
  explicit Simulator(const SimParams &p) : p(p), engines(p.cores) {
    for (Engines &e : engines)
      e.dma.assign(p.dmaQueues, 0.0);
    for (int64_t c = 0; c < 2 * p.cores; ++c) // scratchpads, accumulators
      regions.push_back({{}, {}, c / 2});
    report.clockHz = p.clockHz;
    report.cores = int(p.cores);
    report.dramBytesPerCycle = p.dramBytesPerCycle;
    report.peakMacsPerCycle = double(p.arrayM * p.arrayN * p.arrayK) /
                              p.cyclesPerInstruction * double(p.cores);
  }
  llvm::Error run(func::FuncOp fn, ArrayRef<void *> args);
  SimReport report;

private:
  llvm::Error fail(Operation *op, const llvm::Twine &message,
                   Operation *earlier = nullptr);
  llvm::Error addMem(Operation *op, Value value, int64_t core, int64_t base,
                     void *data, std::string name);
  double startOf(Operation *op, double engine);
  double bookDram(double ready, double length);
  llvm::Error schedule(Operation *op, double &engine, double start, double end,
                       ArrayRef<Use> uses);
  llvm::Error dma(Operation *op, Mem &src, Mem &dst, int64_t core, bool load);
  llvm::Error matmul(MatmulOp op, Mem &a, Mem &b, Mem &acc);
  llvm::Error vector(VectorOp op, ArrayRef<Mem *> mems);

  const SimParams &p;
  std::vector<Engines> engines;
  std::vector<Region> regions;
  std::vector<std::unique_ptr<Mem>> mems;
  std::vector<std::vector<uint64_t>> storage; // 8-byte aligned
  llvm::DenseMap<Value, Mem *> memOf;
  llvm::DenseMap<Value, double> tokenEnd;
  std::vector<std::pair<double, double>> dram; // busy, sorted, disjoint
  double waitTime = 0;
};
} // namespace

llvm::Error Simulator::fail(Operation *op, const llvm::Twine &message,
                            Operation *earlier) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getLoc() << ": " << message;
  if (!isa<func::FuncOp>(op)) // not a whole function
    op->print(os << "\n  this op: ");
  if (earlier)
    earlier->print(os << "\n  earlier: ");
  return llvm::createStringError(text);
}

llvm::Error Simulator::addMem(Operation *op, Value value, int64_t core,
                              int64_t base, void *data, std::string name) {
  auto type = cast<MemRefType>(value.getType());
  std::optional<Elt> elt = eltOf(type.getElementType());
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() || !elt)
    return fail(op, "needs a static, identity-layout memref of f32, bf16, "
                    "f16, f64, i8, i32 or i64");
  auto mem = std::make_unique<Mem>();
  mem->type = *elt;
  mem->bytes = type.getElementTypeBitWidth() / 8;
  mem->core = core;
  mem->base = base;
  mem->name = std::move(name);
  mem->data = static_cast<uint8_t *>(data);
  if (!data) { // a buffer of the function: zeroed
    storage.emplace_back((type.getNumElements() * mem->bytes + 7) / 8, 0);
    mem->data = reinterpret_cast<uint8_t *>(storage.back().data());
  }
  mem->region =
      unsigned(core >= 0 ? 2 * core + (spaceOf(type) == Acc) : regions.size());
  if (core < 0)
    regions.push_back({});
  memOf[value] = mem.get();
  mems.push_back(std::move(mem));
  return llvm::Error::success();
}

/// When `op` can start on an engine free at `engine`: after its dependences
/// (earlier ops' tokens, as the verifier proves) and the last npu.wait.
double Simulator::startOf(Operation *op, double engine) {
  double start = std::max(engine, waitTime);
  for (Value dep : op->getOperands())
    if (isa<TokenType>(dep.getType()))
      start = std::max(start, tokenEnd.lookup(dep));
  return start;
}

/// Books `length` cycles of the shared DRAM at or after `ready`, in the
/// first gap of its calendar: a transfer later in program order may use
/// bandwidth idle before an earlier one (another core's), while transfers
/// issued in time order queue one after another.
double Simulator::bookDram(double ready, double length) {
  auto it = llvm::partition_point(
      dram, [&](const auto &busy) { return busy.second <= ready; });
  double at = ready;
  for (; it != dram.end() && it->first < at + length; ++it)
    at = std::max(at, it->second);
  it = dram.insert(it, {at, at + length});
  if (it + 1 != dram.end() && (it + 1)->first <= it->second)
    it->second = (it + 1)->second, dram.erase(it + 1);
  if (it != dram.begin() && (it - 1)->second >= it->first)
    (it - 1)->second = it->second, dram.erase(it);
  // No later transfer is ready before the earliest free DMA queue.
  double floor = INFINITY;
  for (const Engines &e : engines)
    floor = std::min(floor, *llvm::min_element(e.dma));
  floor = std::max(floor, waitTime);
  dram.erase(dram.begin(), llvm::partition_point(dram, [&](const auto &busy) {
               return busy.second <= floor;
             }));
  return at;
}

/// Places `op` on `engine` from `start` to `end`, checks its uses against
/// the earlier ops' and records them.
llvm::Error Simulator::schedule(Operation *op, double &engine, double start,
                                double end, ArrayRef<Use> uses) {
  engine = end;
  tokenEnd[op->getResult(0)] = end;
  report.cycles = std::max(report.cycles, end);
  ++report.ops;
  for (const Use &use : uses) {
    Region &region = regions[use.mem->region];
    for (bool writes : {true, false}) {
      if (!writes && !use.write) // reads conflict with writes only
        continue;
      for (const Access &a : writes ? region.writes : region.reads)
        if (a.end > start && a.box.overlaps(use.box))
          return fail(op,
                      llvm::formatv("hazard: {0} the {1} from cycle {2:F0}, "
                                    "but the earlier op at {3} {4} it until "
                                    "cycle {5:F0}",
                                    use.write ? "writes" : "reads",
                                    use.mem->name, start, a.op->getLoc(),
                                    writes ? "writes" : "reads", a.end)
                          .str(),
                      a.op);
    }
  }
  for (const Use &use : uses) {
    // A later op conflicting with an access this write covers conflicts
    // with the write too (the access ended before the write started), and
    // so with a read covered by a read that ends later: drop them.
    Region &region = regions[use.mem->region];
    auto covered = [&](const Access &a) {
      return (use.write || a.end <= end) && use.box.covers(a.box);
    };
    llvm::erase_if(region.reads, covered);
    if (use.write)
      llvm::erase_if(region.writes, covered);
    std::vector<Access> &list = use.write ? region.writes : region.reads;
    list.push_back({use.box, end, op});
    if (list.size() < 64)
      continue;
    // A long list drops what ended before every engine that reaches the
    // region is free.
    double floor = INFINITY;
    for (int64_t c = 0; c < p.cores; ++c) {
      if (region.core >= 0 && c != region.core)
        continue;
      floor = std::min(floor, *llvm::min_element(engines[c].dma));
      if (region.core >= 0)
        floor = std::min({floor, engines[c].array, engines[c].vector});
    }
    floor = std::max(floor, waitTime);
    for (std::vector<Access> *l : {&region.reads, &region.writes})
      llvm::erase_if(*l, [&](const Access &a) { return a.end <= floor; });
  }
  return llvm::Error::success();
}

llvm::Error Simulator::dma(Operation *op, Mem &src, Mem &dst, int64_t core,
                           bool load) {
  auto attr = [&](StringRef name) {
    return op->getAttrOfType<DenseI64ArrayAttr>(name).asArrayRef();
  };
  ArrayRef<int64_t> sizes = attr("sizes"), srcView = attr("src_view"),
                    dstView = attr("dst_view");
  int64_t eb = src.bytes, inner = sizes.empty() ? 1 : sizes.back();
  int64_t si = sizes.empty() ? 0 : srcView.back(),
          di = sizes.empty() ? 0 : dstView.back();
  forEachRow<2>(sizes, {srcView, dstView}, [&](auto offs) {
    if (si == 1 && di == 1)
      return (void)std::memcpy(dst.data + offs[1] * eb, src.data + offs[0] * eb,
                               inner * eb);
    for (int64_t i = 0; i < inner; ++i)
      std::memcpy(dst.data + (offs[1] + i * di) * eb,
                  src.data + (offs[0] + i * si) * eb, eb);
  });

  // Each contiguous run of DRAM moves in whole aligned bursts.
  int64_t run = (load ? si : di) == 1 ? inner : 1, align = p.dramAlignmentBytes;
  double bytes =
      double(product(sizes) / run * ((run * eb + align - 1) / align * align));
  report.dramBytes += bytes;
  double &queue = *llvm::min_element(engines[core].dma);
  double start = startOf(op, queue), ready = start + p.dmaSetupCycles;
  double length = bytes / p.dramBytesPerCycle;
  double end =
      std::max(ready + p.dramLatencyCycles + bytes / p.dmaBytesPerCycle,
               bookDram(ready, length) + length);
  Use uses[] = {{&src, Box(src, sizes, srcView), false},
                {&dst, Box(dst, sizes, dstView), true}};
  return schedule(op, queue, start, end, uses);
}

llvm::Error Simulator::matmul(MatmulOp op, Mem &a, Mem &b, Mem &acc) {
  int64_t m = op.getM(), n = op.getN(), k = op.getK();
  ArrayRef<int64_t> av = op.getAView(), bv = op.getBView(),
                    cv = op.getAccView();
  // The operands are gathered once into dense arrays; each row of the
  // result sums over p in order (the definition), j innermost.
  auto run = [&](auto zero, auto load, auto store) {
    using T = decltype(zero);
    std::vector<T> A(m * k), B(k * n), S(n);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t q = 0; q < k; ++q)
        A[i * k + q] = load(a, av[0] + i * av[1] + q * av[2]);
    for (int64_t q = 0; q < k; ++q)
      for (int64_t j = 0; j < n; ++j)
        B[q * n + j] = load(b, bv[0] + q * bv[1] + j * bv[2]);
    for (int64_t i = 0; i < m; ++i) {
      T *s = S.data();
      std::fill(s, s + n, zero);
      for (int64_t q = 0; q < k; ++q) {
        const T x = A[i * k + q], *row = &B[q * n];
        for (int64_t j = 0; j < n; ++j)
          s[j] += x * row[j];
      }
      for (int64_t j = 0; j < n; ++j) {
        int64_t at = cv[0] + i * cv[1] + j * cv[2];
        store(acc, at, op.getAccumulate() ? load(acc, at) + s[j] : s[j]);
      }
    }
  };
  if (a.isFloat() || acc.isFloat())
    run(
        0.0, [](Mem &mem, int64_t i) { return mem.loadF(i); },
        [](Mem &mem, int64_t i, double v) { mem.storeF(i, v); });
  else // int64_t: i8 x i8 products summed exactly, wrapped on store
    run(
        int64_t(0), [](Mem &mem, int64_t i) { return mem.loadI(i); },
        [](Mem &mem, int64_t i, int64_t v) { mem.storeI(i, v); });

  auto tiles = [](int64_t x, int64_t t) { return double((x + t - 1) / t); };
  double cycles = tiles(m, p.arrayM) * tiles(n, p.arrayN) * tiles(k, p.arrayK) *
                      p.cyclesPerInstruction +
                  p.arrayFillCycles;
  report.arrayBusyCycles += cycles;
  report.usefulMacs += double(m) * double(n) * double(k);
  Use uses[] = {{&a, Box(a, {m, k}, av), false},
                {&b, Box(b, {k, n}, bv), false},
                {&acc, Box(acc, {m, n}, cv), true}};
  double &array = engines[op.getCore()].array, start = startOf(op, array);
  return schedule(op, array, start, start + cycles, uses);
}

llvm::Error Simulator::vector(VectorOp op, ArrayRef<Mem *> mems) {
  const auto *fn = llvm::find_if(
      functions, [&](const auto &f) { return f.name == op.getFn(); });
  if (fn == std::end(functions))
    return fail(op, "has a function the simulator does not know");
  // Inputs past the op's read the output's view: never used.
  std::array<Mem *, 3> mem = {mems[0], mems[0], mems[0]};
  std::array<ArrayRef<int64_t>, 3> views;
  views.fill(op.getOutView());
  bool ints = fn->i && !mems[0]->isFloat();
  for (size_t i = 1; i < mems.size(); ++i) {
    mem[i] = mems[i];
    views[i] = cast<DenseI64ArrayAttr>(op.getInViews()[i - 1]).asArrayRef();
    ints = ints && !mems[i]->isFloat();
  }
  double scalar =
      op.getScalarAttr() ? op.getScalarAttr().getValueAsDouble() : 0;
  ArrayRef<int64_t> sizes = op.getSizes();
  size_t rank = sizes.size();
  int64_t inner = rank ? sizes.back() : 1;
  std::array<int64_t, 3> step;
  for (size_t v = 0; v < 3; ++v)
    step[v] = rank ? views[v][rank] : 0;
  Mem &o = *mem[0], &x = *mem[1], &y = *mem[2];
  // Each point reads, computes and writes before the next: an output with
  // stride 0 that is also an input accumulates.
  forEachRow<3>(sizes, views, [&](auto offs) {
    for (int64_t i = 0; i < inner; ++i) {
      int64_t oi = offs[0] + i * step[0], xi = offs[1] + i * step[1],
              yi = offs[2] + i * step[2];
      if (ints)
        o.storeI(oi, fn->i(x.loadI(xi), y.loadI(yi), toInt(scalar)));
      else
        o.storeF(oi, fn->f(x.loadF(xi), y.loadF(yi), scalar));
    }
  });

  auto cost = p.vectorCycles.find(op.getFn().str());
  double cycles = double((product(sizes) + p.vectorLanes - 1) / p.vectorLanes) *
                      (cost == p.vectorCycles.end() ? 1.0 : cost->second) +
                  4;
  llvm::SmallVector<Use, 3> uses;
  for (size_t v = 1; v < mems.size(); ++v)
    uses.push_back({mem[v], Box(*mem[v], sizes, views[v]), false});
  uses.push_back({&o, Box(o, sizes, views[0]), true});
  double &unit = engines[op.getCore()].vector, start = startOf(op, unit);
  return schedule(op, unit, start, start + cycles, uses);
}

llvm::Error Simulator::run(func::FuncOp fn, ArrayRef<void *> args) {
  if (!fn.getBody().hasOneBlock())
    return fail(fn, "expects a function of one block");
  Block &body = fn.getBody().front();
  if (args.size() != body.getNumArguments())
    return fail(fn, llvm::formatv("takes {0} arguments; the launch gives {1}",
                                  body.getNumArguments(), args.size())
                        .str());
  for (BlockArgument arg : body.getArguments()) {
    if (!isa<MemRefType>(arg.getType()) || spaceOf(arg.getType()) != Dram)
      return fail(fn, "expects DRAM memref arguments");
    unsigned i = arg.getArgNumber();
    if (llvm::Error error = addMem(fn, arg, -1, 0, args[i],
                                   "DRAM argument #" + std::to_string(i)))
      return error;
  }
  for (Operation &op : body) {
    llvm::Error error = llvm::Error::success();
    if (auto buffer = dyn_cast<BufferOp>(op)) {
      int64_t core = buffer.getCore(), offset = buffer.getOffset();
      MemRefType type = buffer.getType();
      bool acc = spaceOf(type) == Acc;
      int64_t capacity = acc ? p.accumulatorBytes : p.scratchpadBytes;
      if (core >= p.cores)
        return fail(&op, "is on a core the chip does not have");
      if (capacity > 0 &&
          offset + type.getNumElements() * type.getElementTypeBitWidth() / 8 >
              capacity)
        return fail(&op, "does not fit the core's " + llvm::Twine(capacity) +
                             " bytes");
      error = addMem(&op, buffer, core, offset, nullptr,
                     llvm::formatv("core {0} {1} buffer at byte {2}", core,
                                   acc ? "accumulator" : "scratchpad", offset)
                         .str());
    } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (spaceOf(alloc.getType()) != Dram)
        return fail(&op, "allocates outside DRAM");
      std::string name;
      llvm::raw_string_ostream(name) << "DRAM buffer of " << op.getLoc();
      error = addMem(&op, alloc, -1, 0, nullptr, name);
    } else if (isa<DmaLoadOp, DmaStoreOp, MatmulOp, VectorOp>(op)) {
      // The memrefs it uses, in operand order; all on its core or in DRAM.
      int64_t core = op.getAttrOfType<IntegerAttr>("core").getInt();
      if (core >= p.cores)
        return fail(&op, "runs on a core the chip does not have");
      llvm::SmallVector<Mem *, 4> used;
      for (Value v : op.getOperands()) {
        if (!isa<MemRefType>(v.getType()))
          continue;
        Mem *mem = memOf.lookup(v);
        if (!mem)
          return fail(&op, "uses a memref the simulator did not see defined");
        if (mem->core >= 0 && mem->core != core)
          return fail(&op, "runs on core " + llvm::Twine(core) +
                               " but uses the " + mem->name);
        used.push_back(mem);
      }
      if (auto mm = dyn_cast<MatmulOp>(op))
        error = matmul(mm, *used[0], *used[1], *used[2]);
      else if (auto vec = dyn_cast<VectorOp>(op))
        error = vector(vec, used);
      else
        error = dma(&op, *used[0], *used[1], core, isa<DmaLoadOp>(op));
    } else if (isa<WaitOp>(op)) {
      waitTime = report.cycles; // every op so far has ended
    } else if (!isa<func::ReturnOp, memref::DeallocOp>(op)) {
      return fail(&op, "is an op the npu simulator does not know: '" +
                           op.getName().getStringRef() + "'");
    }
    if (error)
      return error;
  }
  return llvm::Error::success();
}

llvm::Expected<SimReport> npu::simulate(func::FuncOp fn, ArrayRef<void *> args,
                                        const SimParams &params) {
  Simulator sim(params);
  if (llvm::Error error = sim.run(fn, args))
    return llvm::Expected<SimReport>(std::move(error));
  return sim.report;
}
