//===- Trace.h - What the emulator records for the cycle model --*- C++ -*-===//
//
// The emulator runs a tile program exactly and records, per kernel instance
// (one kernel on one core), the ops that take time or synchronize, in program
// order. A wait that had to be satisfied by another kernel records which
// event satisfied it (the push that made a tile available, the pop that
// freed a slot, the last write of a semaphore), so the cycle model can replay
// the program in time without re-deciding its order. Scalar code (loops,
// index math) is not recorded.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_TRACE_H
#define STRATA_TILE_TRACE_H

#include <cstdint>
#include <string>
#include <vector>

namespace strata::tile {

enum class EventKind : uint8_t {
  // Math side of a compute kernel.
  Matmul,  ///< one tile matmul on the matrix engine
  Eltwise, ///< binary op of two CB tiles on the matrix engine (op: kind)
  Unpack,  ///< a CB tile copied to Dst
  Reduce,  ///< row/column reduction of a CB tile on the matrix engine
  Vector,  ///< unary or Dst-Dst binary op on the vector engine (op: kind)
  AcquireDst,
  CommitDst,
  // Pack side of a compute kernel.
  WaitDst,
  ReleaseDst,
  Pack, ///< a Dst tile packed into a CB (bytes: the packed tile)
  // Circular buffers (count: tiles).
  ReserveBack, ///< dep: the pop that freed the last slot needed, if any
  PushBack,
  WaitFront, ///< dep: the push of the last tile needed
  PopFront,
  // NoC (bytes; peer: a DRAM bank or a core index row * cols + col).
  ReadDram,
  WriteDram,
  ReadL1,
  WriteL1,
  WriteMulticast, ///< peer, peer2: the rectangle's corners (core indices)
  ReadBarrier,
  WriteBarrier,
  // Semaphores.
  SemWait, ///< dep: the event that last wrote the semaphore, if any
  SemSet,
  SemInc,          ///< peer: the core whose semaphore is incremented
  SemSetMulticast, ///< peer, peer2: the rectangle's corners
};

/// The vector-engine operations (Event::op for Vector events), in the order
/// of their names in vectorOpName().
enum class VectorOp : uint8_t {
  Add,
  Sub,
  Mul,
  Max,
  Exp,
  Recip,
  Gelu,
  Relu,
  Sqrt,
  Rsqrt,
  Neg,
  Abs,
  Tanh,
  Min,
  Log,
  RoundBf16, ///< to the nearest bf16 value, ties to even
  Rsub,      ///< y - x (a scalar minus the tile)
  Sin,
  Cos,
  Erf,
  Eq, ///< 1 where x == y, else 0 (IEEE: false for NaN)
  Ne, ///< 1 where x != y (true for NaN)
  Lt,
  Le,
  Gt,
  Ge,
  Fill,  ///< y (a scalar written over the tile)
  Where, ///< c != 0 ? x : y (three operands)
};
constexpr int kVectorOps = int(VectorOp::Where) + 1;
inline const char *vectorOpName(VectorOp op) {
  static const char *const names[] = {
      "add",  "sub",        "mul",   "max", "exp", "recip", "gelu",
      "relu", "sqrt",       "rsqrt", "neg", "abs", "tanh",  "min",
      "log",  "round_bf16", "rsub",  "sin", "cos", "erf",   "eq",
      "ne",   "lt",         "le",    "gt",  "ge",  "fill",  "where"};
  return names[int(op)];
}

/// An event of another (or the same) kernel instance.
struct EventRef {
  int32_t kernel = -1; ///< index into Trace::kernels; -1: none
  int32_t index = -1;  ///< index into that kernel's events
  bool valid() const { return kernel >= 0; }
};

struct Event {
  explicit Event(EventKind kind) : kind(kind) {}
  EventKind kind;
  uint8_t op = 0;     ///< VectorOp for Vector events; Unpack: 1 transposes
  int32_t count = 0;  ///< tiles (circular-buffer events)
  int64_t bytes = 0;  ///< bytes moved (NoC, pack, unpack)
  int32_t peer = -1;  ///< DRAM bank or core index
  int32_t peer2 = -1; ///< second corner of a multicast rectangle
  EventRef dep;       ///< what satisfied a wait
};

enum class TraceKernelKind : uint8_t { Reader, Compute, Writer };

/// One kernel on one core.
struct KernelTrace {
  TraceKernelKind kind = TraceKernelKind::Reader;
  int64_t row = 0, col = 0;
  std::string name;       ///< "reader", "compute" or "writer"
  bool dstF32 = true;     ///< compute: Dst format
  std::string fidelity;   ///< compute: the matrix engine's fidelity
  std::string matmulType; ///< compute: element type of matmul operands
  std::vector<Event> events;
};

struct Trace {
  int64_t rows = 0, cols = 0; ///< the core grid
  std::vector<KernelTrace> kernels;
  /// Events of all kernels.
  size_t numEvents() const {
    size_t n = 0;
    for (const KernelTrace &kernel : kernels)
      n += kernel.events.size();
    return n;
  }
};

} // namespace strata::tile

#endif // STRATA_TILE_TRACE_H
