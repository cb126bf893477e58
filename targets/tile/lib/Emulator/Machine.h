//===- Machine.h - The emulator's chip and kernel instances ----*- C++ -*-===//
//
// Internal to the emulator. A Machine holds the state of every core (L1,
// circular buffers, semaphores), DRAM, and the kernel instances with their
// interpreter frames. Each op kind is executed by a member function in the
// file of its family (ScalarOps.cpp, BufferOps.cpp, NocOps.cpp,
// ComputeOps.cpp); Interpreter.cpp drives the frames and Scheduler.cpp the
// instances.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_LIB_EMULATOR_MACHINE_H
#define STRATA_TILE_LIB_EMULATOR_MACHINE_H

#include "strata/Tile/Emulator/Dram.h"

#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Tile/Emulator/Emulator.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace strata::tile {

/// A scalar SSA value of a kernel: integers and indices as int64_t, floats
/// as double.
union Scalar {
  int64_t i;
  double f;
};

/// The result of executing one op.
enum class Step {
  Next,    ///< done; continue with the next op
  Jumped,  ///< done; the op moved the frames itself (loops, conditions)
  Blocked, ///< cannot proceed yet; retry the same op later
  Failed,  ///< an error was reported
};

/// One circular buffer on one core.
struct BufferState {
  bool present = false;
  std::string name;
  int64_t base = 0;      ///< L1 address
  int64_t capacity = 0;  ///< tiles
  int64_t tileBytes = 0; ///< bytes of one stored tile
  TileFormat format = TileFormat::BF16;
  const TileGeometry *geometry = nullptr;
  int64_t writeSlot = 0, readSlot = 0; ///< slots of the back and the front
  int64_t occupied = 0;                ///< pushed and not popped
  int64_t reserved = 0;                ///< reserved at the back, not yet pushed
  int64_t waited = 0; ///< waited for at the front, not yet popped
  int64_t pushed = 0, popped = 0;
  /// The events that pushed / popped tile ordinal n, at n % capacity.
  std::vector<EventRef> pushEvents, popEvents;
};

/// One semaphore on one core.
struct SemaphoreState {
  bool present = false;
  std::string name;
  int64_t value = 0;
  EventRef lastWrite;
};

/// A DRAM tensor: where its pages are.
struct TensorState {
  DramTensorOp decl;
  TensorInfo info;
  DramPlacement placement;
  int64_t pageBytes = 0;
  int64_t tilesPerRow = 0, pages = 0;
  const TileGeometry *geometry = nullptr;
};

/// The accumulator's protocol state of a compute instance.
enum class DstState { Released, Acquired, Committed, Waited };

/// A position in a block being interpreted.
struct Frame {
  mlir::Block *block = nullptr;
  mlir::Block::iterator next;
  mlir::Operation *owner = nullptr;    ///< scf.for / scf.if, or the kernel
  int64_t iv = 0, upper = 0, step = 1; ///< scf.for
};

/// One kernel on one core.
struct Instance {
  KernelOp kernel;
  KernelKind kind = KernelKind::reader;
  int64_t row = 0, col = 0;
  int32_t traceIndex = 0;
  llvm::DenseMap<mlir::Value, Scalar> values;
  llvm::SmallVector<Frame, 4> frames;
  bool finished = false;
  int64_t readsInFlight = 0, writesInFlight = 0;
  // Compute instances.
  DstState dst = DstState::Released;
  bool dstF32 = true;
  int64_t dstCapacity = 0;
  std::vector<float> dstTiles;  ///< dstCapacity tiles, row-major f32
  std::vector<char> dstWritten; ///< per tile: written since acquire
  /// L1 addresses of the tiles the last matmul unpacked into the source
  /// registers (-1: none, or clobbered by another unpack or a pop).
  int64_t srcA = -1, srcB = -1;
  // Why it is blocked, for the deadlock report.
  mlir::Operation *blockedOp = nullptr;
  std::string blockedReason;
};

class Machine {
public:
  Machine(ProgramOp program, TileChip chip);
  /// Lays out memory and creates instances; false after reporting an error.
  mlir::LogicalResult initialize();

  // Scheduler.cpp
  mlir::LogicalResult run();

  // Host I/O (Machine.cpp).
  mlir::LogicalResult writeTensor(llvm::StringRef name,
                                  llvm::ArrayRef<float> rowMajor);
  mlir::FailureOr<std::vector<float>> readTensor(llvm::StringRef name);

  std::vector<TensorInfo> tensorInfos;
  Trace trace;
  RunStats stats;

private:
  friend class Emulator;

  // Interpreter.cpp: runs an instance until it blocks, fails or ends;
  // `progressed` tells whether it executed anything.
  Step runInstance(Instance &inst, bool &progressed);
  Step execute(mlir::Operation *op, Instance &inst);
  Step enterFor(mlir::Operation *op, Instance &inst);
  Step enterIf(mlir::Operation *op, Instance &inst);
  Step yield(mlir::Operation *op, Instance &inst);

  // ScalarOps.cpp: arith ops and constants.
  Step executeScalar(mlir::Operation *op, Instance &inst);
  /// Whether the interpreter can run `op` (checked before running).
  static bool isInterpretable(mlir::Operation *op);

  // BufferOps.cpp
  Step executeBuffer(mlir::Operation *op, Instance &inst);
  // NocOps.cpp
  Step executeNoc(mlir::Operation *op, Instance &inst);
  // ComputeOps.cpp
  Step executeCompute(mlir::Operation *op, Instance &inst);

  // Helpers (Machine.cpp).
  int64_t get(Instance &inst, mlir::Value value) {
    return inst.values.find(value)->second.i;
  }
  int64_t coreIndex(int64_t row, int64_t col) const {
    return row * chip.cols + col;
  }
  uint8_t *l1(int64_t row, int64_t col) {
    return memory[coreIndex(row, col)].get();
  }
  BufferState *buffer(Instance &inst, mlir::FlatSymbolRefAttr symbol);
  SemaphoreState *semaphore(int64_t row, int64_t col,
                            mlir::FlatSymbolRefAttr symbol);
  /// Sets a semaphore (and its word in L1) on behalf of `event`.
  void setSemaphore(int64_t row, int64_t col, mlir::FlatSymbolRefAttr symbol,
                    SemaphoreState &state, int64_t value, EventRef event);
  TensorState *tensor(mlir::FlatSymbolRefAttr symbol);
  /// Records an event of `inst`; returns its reference.
  EventRef record(Instance &inst, Event event);
  /// An error at `op` naming the instance.
  mlir::InFlightDiagnostic error(mlir::Operation *op, Instance &inst);
  /// Checks that [address, address + bytes) lies in L1.
  mlir::LogicalResult checkL1(mlir::Operation *op, Instance &inst,
                              int64_t address, int64_t bytes);
  /// Checks that (row, col) is a core of the grid.
  mlir::LogicalResult checkCore(mlir::Operation *op, Instance &inst,
                                int64_t row, int64_t col);
  /// Blocks `inst` on `op` for the reason given.
  Step block(mlir::Operation *op, Instance &inst, std::string reason);
  /// The geometry of tiles of `type`, shared.
  const TileGeometry *geometryOf(TileType type);

  ProgramOp program;
  TileChip chip;
  Dram dram;
  /// Frees what calloc allocated.
  struct FreeBytes {
    void operator()(uint8_t *bytes) const { std::free(bytes); }
  };
  /// L1 of each core, zeroed; calloc leaves untouched pages to the OS, so
  /// a core's L1 costs only what its buffers use.
  std::vector<std::unique_ptr<uint8_t[], FreeBytes>> memory;
  /// Per declaration (by symbol name): its index among buffers/semaphores.
  llvm::DenseMap<mlir::Attribute, int> bufferIndex, semaphoreIndex, tensorIndex;
  /// [declaration index * cores + core index].
  std::vector<BufferState> buffers;
  std::vector<SemaphoreState> semaphores;
  std::vector<int64_t> semaphoreAddress;
  std::vector<TensorState> tensors;
  std::vector<Instance> instances;
  std::vector<std::unique_ptr<TileGeometry>> geometries;
  std::vector<float> scratchA, scratchB; ///< unpacked operand tiles
};

} // namespace strata::tile

#endif // STRATA_TILE_LIB_EMULATOR_MACHINE_H
