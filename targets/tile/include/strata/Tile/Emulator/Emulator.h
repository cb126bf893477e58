//===- Emulator.h - Runs tile programs exactly ------------------*- C++ -*-===//
//
// The emulator interprets a tile.program (dialects/tile) on a model of the
// chip its description gives: every core's L1 is a byte array of the
// described capacity holding the program's circular buffers and semaphores
// (laid out as the verifier checked them), DRAM is one byte array per bank
// holding the tensors' pages where their layouts put them, and every kernel
// instance (one kernel on one core) is a resumable interpreter. A cooperative
// scheduler runs the instances round robin, each until it blocks (on a
// circular buffer, a semaphore or the accumulator) or ends; when every live
// instance is blocked the program is deadlocked, and the error names each
// kernel, its core and what it waits for. Misuse the verifier cannot see
// (indices past what was reserved or waited for, L1 accesses outside L1,
// data used before its NoC barrier) is an error at the op.
//
// Semantics: docs/tile-target.md, "The emulator".
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_EMULATOR_EMULATOR_H
#define STRATA_TILE_EMULATOR_EMULATOR_H

#include "strata/HW/Description.h"
#include "strata/Tile/Emulator/Numerics.h"
#include "strata/Tile/Trace.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace strata::tile {

class ProgramOp;
class Machine;

/// A DRAM tensor of the program, as the host sees it.
struct TensorInfo {
  std::string name;
  enum class Role { Input, Output, Scratch } role = Role::Input;
  int64_t rows = 0, cols = 0;
  TileFormat format = TileFormat::BF16;
};

/// What a run did.
struct RunStats {
  int64_t instances = 0;  ///< kernel instances
  int64_t operations = 0; ///< ops interpreted
  int64_t switches = 0;   ///< times the scheduler resumed an instance
};

class Emulator {
public:
  /// Prepares a verified program for the chip `description` (a tile chip):
  /// lays out L1 and DRAM and creates the kernel instances. Problems are
  /// reported as diagnostics on the program.
  static mlir::FailureOr<std::unique_ptr<Emulator>>
  create(ProgramOp program, const hw::Description &description);
  ~Emulator();

  /// The program's DRAM tensors, in declaration order.
  const std::vector<TensorInfo> &tensors() const;
  /// Writes a tensor from row-major values (rounded to its element type).
  mlir::LogicalResult writeTensor(llvm::StringRef name,
                                  llvm::ArrayRef<float> rowMajor);
  /// Reads a tensor as row-major values.
  mlir::FailureOr<std::vector<float>> readTensor(llvm::StringRef name);

  /// Runs every kernel instance to its end. Deadlocks and misuse are
  /// reported as diagnostics at the ops involved.
  mlir::LogicalResult run();

  /// The events recorded by run(), for the cycle model.
  const Trace &trace() const;
  const RunStats &stats() const;

private:
  explicit Emulator(std::unique_ptr<Machine> machine);
  std::unique_ptr<Machine> machine;
};

} // namespace strata::tile

#endif // STRATA_TILE_EMULATOR_EMULATOR_H
