//===- TileProgramOps.cpp - Programs against declarations and chip -------===//
//
// tile.program's verifier: every use of a declaration (buffer capacity, tile
// shapes and types, which cores a buffer exists on), the accumulator
// protocol (TileDstCheck.cpp) and, with a #strata.hw description, the chip's
// limits: the grid, the tile shape, circular buffers per core, L1 capacity,
// Dst capacity, fidelities and matrix-engine operand types.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Tile/IR/TileChip.h"
#include "strata/Dialect/Tile/IR/TileDialect.h"
#include "strata/Dialect/Tile/IR/TileL1Layout.h"
#include "strata/Dialect/Tile/IR/TileVerify.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {

/// The declarations of a program by symbol name.
struct Declarations {
  llvm::StringMap<Operation *> byName;

  template <typename T> T lookup(StringRef name) const {
    auto it = byName.find(name);
    return it == byName.end() ? T() : dyn_cast<T>(it->second);
  }
};

std::string rangeString(CoreRangeAttr range) {
  return "[" + std::to_string(range.getRow0()) + ", " +
         std::to_string(range.getCol0()) + "]-[" +
         std::to_string(range.getRow1()) + ", " +
         std::to_string(range.getCol1()) + "]";
}

std::string shapeString(TileType tile) {
  return std::to_string(tile.getRows()) + "x" + std::to_string(tile.getCols());
}

/// The circular buffer `name` used by `op` in `kernel`: it must exist on
/// every core of the kernel.
FailureOr<CircularBufferOp> lookupBuffer(Operation *op, StringRef name,
                                         KernelOp kernel,
                                         const Declarations &decls) {
  auto cb = decls.lookup<CircularBufferOp>(name);
  if (!cb)
    return op->emitOpError()
           << "'@" << name << "' is not a circular buffer of this program";
  if (!cb.getCores().contains(kernel.getCores()))
    return op->emitOpError()
           << "runs on cores " << rangeString(kernel.getCores())
           << " but circular buffer @" << name << " exists only on cores "
           << rangeString(cb.getCores());
  return cb;
}

/// A tile index or slot `index` into `cb`, when constant, is inside it.
LogicalResult checkTileIndex(Operation *op, CircularBufferOp cb, Value index,
                             StringRef what) {
  std::optional<int64_t> value = getConstantIntValue(index);
  int64_t capacity = cb.getBufferType().getCapacity();
  if (value && (*value < 0 || *value >= capacity))
    return op->emitOpError()
           << what << " " << *value << " is outside circular buffer @"
           << cb.getSymName() << ", which holds " << capacity << " tiles";
  return success();
}

/// A tile count of reserve/push/wait/pop, when constant, fits the buffer.
LogicalResult checkCount(Operation *op, CircularBufferOp cb, Value count) {
  std::optional<int64_t> value = getConstantIntValue(count);
  if (!value)
    return success();
  int64_t capacity = cb.getBufferType().getCapacity();
  if (*value < 0)
    return op->emitOpError() << "tile count must be >= 0, got " << *value;
  if (*value > capacity)
    return op->emitOpError()
           << "moves " << *value << " tiles, more than circular buffer @"
           << cb.getSymName() << " holds (" << capacity
           << "): it could never proceed";
  return success();
}

/// The (buffer, tile index) pairs an op reads or writes.
SmallVector<std::pair<FlatSymbolRefAttr, Value>, 2>
tileOperands(Operation *op) {
  SmallVector<std::pair<FlatSymbolRefAttr, Value>, 2> uses;
  llvm::TypeSwitch<Operation *>(op)
      .Case<MatmulTilesOp, BinaryOp>([&](auto op) {
        uses.push_back({op.getAAttr(), op.getAIndex()});
        uses.push_back({op.getBAttr(), op.getBIndex()});
      })
      .Case<UnpackTileOp, ReduceOp>([&](auto op) {
        uses.push_back({op.getCbAttr(), op.getIndex()});
      })
      .Case<PackTileOp>([&](auto op) {
        uses.push_back({op.getCbAttr(), op.getSlot()});
      });
  return uses;
}

/// Checks one op of `kernel` against the declarations.
LogicalResult verifyUse(Operation *op, KernelOp kernel,
                        const Declarations &decls) {
  // Tile operands: the buffer exists on the kernel's cores, the index is in.
  SmallVector<CircularBufferOp, 2> buffers;
  for (auto [symbol, index] : tileOperands(op)) {
    FailureOr<CircularBufferOp> cb =
        lookupBuffer(op, symbol.getValue(), kernel, decls);
    if (failed(cb) ||
        failed(checkTileIndex(op, *cb, index,
                              isa<PackTileOp>(op) ? "slot" : "tile index")))
      return failure();
    buffers.push_back(*cb);
  }
  auto tileOf = [&](unsigned i) {
    return buffers[i].getBufferType().getTileType();
  };
  if (auto matmul = dyn_cast<MatmulTilesOp>(op)) {
    TileType a = tileOf(0), b = tileOf(1);
    if (a.getCols() != b.getRows())
      return op->emitOpError()
             << "needs A's columns to equal B's rows: @" << matmul.getA()
             << " holds " << shapeString(a) << " tiles, @" << matmul.getB()
             << " holds " << shapeString(b) << " tiles";
    if (a.getElementType() != b.getElementType())
      return op->emitOpError()
             << "needs operands of one element type: @" << matmul.getA()
             << " holds " << a.getElementType() << " tiles, @" << matmul.getB()
             << " holds " << b.getElementType() << " tiles";
  }
  // The transposing unpack swaps rows and columns in place of the Dst
  // tile: square tiles, and no broadcast on top.
  if (auto unpack = dyn_cast<UnpackTileOp>(op);
      unpack && unpack.getTranspose()) {
    if (tileOf(0).getRows() != tileOf(0).getCols())
      return op->emitOpError()
             << "transposes square tiles only; @" << unpack.getCb() << " holds "
             << shapeString(tileOf(0)) << " tiles";
    if (unpack.getBcast() != Broadcast::none)
      return op->emitOpError() << "cannot both transpose and broadcast";
  }
  if (auto binary = dyn_cast<BinaryOp>(op)) {
    if (tileOf(0).getRows() != tileOf(1).getRows() ||
        tileOf(0).getCols() != tileOf(1).getCols())
      return op->emitOpError()
             << "needs tiles of one shape: @" << binary.getA() << " holds "
             << shapeString(tileOf(0)) << " tiles, @" << binary.getB()
             << " holds " << shapeString(tileOf(1)) << " tiles";
  }

  // Buffer counts and pointers.
  LogicalResult result = success();
  llvm::TypeSwitch<Operation *>(op)
      .Case<CBReserveBackOp, CBPushBackOp, CBWaitFrontOp, CBPopFrontOp>(
          [&](auto op) {
            FailureOr<CircularBufferOp> cb =
                lookupBuffer(op, op.getCb(), kernel, decls);
            result =
                failed(cb) ? failure() : checkCount(op, *cb, op.getCount());
          })
      .Case<CBWritePtrOp, CBReadPtrOp>([&](auto op) {
        result = lookupBuffer(op, op.getCb(), kernel, decls);
      })
      .Case<NocReadTileOp, NocWriteTileOp, NocReadBytesOp, NocWriteBytesOp>(
          [&](auto op) {
            auto tensor = decls.lookup<DramTensorOp>(op.getTensor());
            if (!tensor)
              result = op.emitOpError() << "'@" << op.getTensor()
                                        << "' is not a DRAM tensor of this "
                                           "program";
          })
      .Case<SemWaitOp, SemSetOp, SemIncOp, SemSetMulticastOp>([&](auto op) {
        auto sem = decls.lookup<SemaphoreOp>(op.getSem());
        if (!sem)
          result = op.emitOpError() << "'@" << op.getSem()
                                    << "' is not a semaphore of this program";
        else if (!isa<SemIncOp, SemSetMulticastOp>(op) &&
                 !sem.getCores().contains(kernel.getCores()))
          result = op.emitOpError()
                   << "runs on cores " << rangeString(kernel.getCores())
                   << " but semaphore @" << op.getSem()
                   << " exists only on cores " << rangeString(sem.getCores());
      });
  if (failed(result))
    return failure();

  // A byte range of one page stays inside the page.
  auto checkPageRange = [&](StringRef name, Value offset,
                            Value size) -> LogicalResult {
    auto tensor = decls.lookup<DramTensorOp>(name);
    std::optional<int64_t> o = getConstantIntValue(offset);
    std::optional<int64_t> s = getConstantIntValue(size);
    int64_t page = tensor.getTensorType().getPageBytes();
    if ((o && *o < 0) || (s && *s < 1) || (o && s && *o + *s > page))
      return op->emitOpError() << "byte range must lie inside one page of @"
                               << name << " (" << page << " bytes)";
    return success();
  };
  if (auto read = dyn_cast<NocReadBytesOp>(op))
    return checkPageRange(read.getTensor(), read.getOffset(), read.getSize());
  if (auto write = dyn_cast<NocWriteBytesOp>(op))
    return checkPageRange(write.getTensor(), write.getOffset(),
                          write.getSize());
  return success();
}

} // namespace

SmallVector<Value, 3> strata::tile::dstOperands(Operation *op) {
  SmallVector<Value, 3> indices;
  llvm::TypeSwitch<Operation *>(op)
      .Case<MatmulTilesOp, BinaryOp, UnpackTileOp, ReduceOp, UnaryOp,
            UnaryScalarOp, PackTileOp>(
          [&](auto op) { indices.push_back(op.getDst()); })
      .Case<BinaryDstOp>([&](BinaryDstOp op) {
        indices.append({op.getLhs(), op.getRhs(), op.getDst()});
      })
      .Case<WhereDstOp>([&](WhereDstOp op) {
        indices.append(
            {op.getCond(), op.getOnTrue(), op.getOnFalse(), op.getDst()});
      });
  return indices;
}

/// The checks that need the chip.
static LogicalResult verifyAgainstChip(ProgramOp program, const TileChip &chip,
                                       const Declarations &decls) {
  Block &body = program.getBody().front();
  auto checkRange = [&](Operation *op, CoreRangeAttr range) -> LogicalResult {
    if (range.getRow1() < chip.rows && range.getCol1() < chip.cols)
      return success();
    return op->emitOpError()
           << "uses cores " << rangeString(range) << ", outside the "
           << chip.rows << "x" << chip.cols << " grid of chip '" << chip.name
           << "'";
  };
  auto checkTile = [&](Operation *op, TileType tile) -> LogicalResult {
    if (tile.getRows() == chip.tileRows && tile.getCols() == chip.tileCols &&
        tile.getFaceRows() == chip.faceRows &&
        tile.getFaceCols() == chip.faceCols)
      return success();
    return op->emitOpError()
           << "uses " << shapeString(tile) << " tiles of " << tile.getFaceRows()
           << "x" << tile.getFaceCols() << " faces; chip '" << chip.name
           << "' has " << chip.tileRows << "x" << chip.tileCols << " tiles of "
           << chip.faceRows << "x" << chip.faceCols << " faces";
  };

  for (Operation &op : body) {
    LogicalResult ok =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case<CircularBufferOp>([&](CircularBufferOp cb) {
              return failure(
                  failed(checkRange(cb, cb.getCores())) ||
                  failed(checkTile(cb, cb.getBufferType().getTileType())));
            })
            .Case<SemaphoreOp>([&](SemaphoreOp sem) {
              return checkRange(sem, sem.getCores());
            })
            .Case<KernelOp>([&](KernelOp kernel) {
              return checkRange(kernel, kernel.getCores());
            })
            .Case<DramTensorOp>([&](DramTensorOp tensor) {
              return checkTile(tensor, tensor.getTensorType().getTileType());
            })
            .Default([](Operation *) { return success(); });
    if (failed(ok))
      return failure();
  }

  // Circular buffers per core.
  for (int64_t row = 0; row < chip.rows; ++row)
    for (int64_t col = 0; col < chip.cols; ++col) {
      int64_t buffers = 0;
      for (auto cb : body.getOps<CircularBufferOp>())
        if (cb.getCores().contains(row, col) &&
            ++buffers > chip.maxCircularBuffers)
          return cb.emitOpError()
                 << "is circular buffer " << buffers << " of core [" << row
                 << ", " << col << "]; chip '" << chip.name << "' has at most "
                 << chip.maxCircularBuffers << " per core";
    }

  // L1: the first buffer that does not fit is reported with everything
  // placed on its core before it.
  L1Layout layout = layoutL1(program, chip);
  if (layout.overflow) {
    const L1Overflow &overflow = *layout.overflow;
    std::string listing;
    int64_t used = 0;
    auto describe = [&](Operation *decl, int64_t bytes) {
      listing += listing.empty() ? "" : ", ";
      if (auto cb = dyn_cast<CircularBufferOp>(decl)) {
        CircularBufferType type = cb.getBufferType();
        listing += "@" + cb.getSymName().str() + " " +
                   std::to_string(type.getCapacity()) + " x " +
                   std::to_string(type.getTileType().getSizeInBytes()) +
                   " B = " + std::to_string(bytes) + " B";
      } else {
        listing += "@" + cast<SemaphoreOp>(decl).getSymName().str() +
                   " semaphore " + std::to_string(bytes) + " B";
      }
      used += bytes;
    };
    for (const L1Allocation &allocation : layout.allocations) {
      auto range = allocation.decl->getAttrOfType<CoreRangeAttr>("cores");
      if (range.contains(overflow.row, overflow.col))
        describe(allocation.decl, allocation.bytes);
    }
    int64_t bytes = isa<CircularBufferOp>(overflow.decl)
                        ? chip.alignL1(cast<CircularBufferOp>(overflow.decl)
                                           .getBufferType()
                                           .getSizeInBytes())
                        : semaphoreBytes(chip);
    describe(overflow.decl, bytes);
    InFlightDiagnostic diag =
        overflow.decl->emitOpError()
        << "does not fit in L1 of core [" << overflow.row << ", "
        << overflow.col << "]: the buffers of the core need " << overflow.end
        << " bytes, more than the " << chip.l1Bytes << " bytes of L1 of chip '"
        << chip.name << "' (" << listing << ")";
    if (overflow.end > used)
      diag << "; " << overflow.end - used
           << " of those bytes are gaps that give every buffer one address "
              "on all its cores";
    return diag;
  }

  // Accumulator indices, fidelities and matrix-engine operand types.
  for (auto kernel : body.getOps<KernelOp>()) {
    if (kernel.getKind() != KernelKind::compute)
      continue;
    if (kernel.getFidelity() && !chip.fidelities.empty() &&
        llvm::find(chip.fidelities, kernel.getFidelityName()) ==
            chip.fidelities.end()) {
      std::string known;
      for (const std::string &f : chip.fidelities)
        known += (known.empty() ? "" : ", ") + f;
      return kernel.emitOpError()
             << "fidelity '" << kernel.getFidelityName() << "' is not one of "
             << "chip '" << chip.name << "': " << known;
    }
    bool f32 = kernel.getDstElementType().isF32();
    int64_t capacity = chip.dstCapacity(f32);
    WalkResult walk = kernel.walk([&](Operation *op) {
      for (Value index : dstOperands(op)) {
        std::optional<int64_t> value = getConstantIntValue(index);
        if (value && *value >= capacity) {
          op->emitOpError()
              << "Dst index " << *value << " is beyond the accumulator: chip '"
              << chip.name << "' gives a compute kernel " << capacity << " "
              << (f32 ? "f32" : "bf16") << " tiles"
              << (chip.dstDoubleBuffered ? " (half of Dst, double-buffered)"
                                         : "");
          return WalkResult::interrupt();
        }
      }
      if (auto matmul = dyn_cast<MatmulTilesOp>(op)) {
        auto cb = decls.lookup<CircularBufferOp>(matmul.getA());
        Type element = cb.getBufferType().getTileType().getElementType();
        // Block floats reach the matrix engine as bf16 (the unpacker widens
        // them exactly).
        std::string name = element.isF32() ? "f32" : "bf16";
        if (llvm::find(chip.matrixTypes, name) == chip.matrixTypes.end()) {
          op->emitOpError()
              << "has " << name << " operands; no matrix intrinsic of chip '"
              << chip.name << "' takes them";
          return WalkResult::interrupt();
        }
        // The kernel's fidelity must be one the operands' intrinsic runs at
        // (f32 read as TF32: HiFi4 only).
        auto own = chip.fidelitiesByType.find(name);
        if (own != chip.fidelitiesByType.end() && !own->second.empty() &&
            !llvm::is_contained(own->second, kernel.getFidelityName())) {
          std::string known;
          for (const std::string &f : own->second)
            known += (known.empty() ? "" : ", ") + f;
          op->emitOpError() << "has " << name << " operands, which chip '"
                            << chip.name << "' multiplies at " << known
                            << " only, not at the kernel's fidelity '"
                            << kernel.getFidelityName() << "'";
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  return success();
}

LogicalResult ProgramOp::verifyRegions() {
  if (getBody().empty())
    return success();
  Declarations decls;
  SmallVector<KernelOp> kernels;
  for (Operation &op : getBody().front()) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      kernels.push_back(kernel);
      continue;
    }
    if (!isa<DramTensorOp, CircularBufferOp, SemaphoreOp>(op))
      return op.emitOpError()
             << "cannot appear at the top of a tile.program: it holds "
                "declarations (tile.dram_tensor, tile.circular_buffer, "
                "tile.semaphore) and tile.kernel ops";
    decls.byName[cast<SymbolOpInterface>(op).getName()] = &op;
  }

  // A core has one processor (pair) per kernel kind.
  for (size_t i = 0; i < kernels.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      CoreRangeAttr a = kernels[i].getCores(), b = kernels[j].getCores();
      bool overlap = a.getRow0() <= b.getRow1() && b.getRow0() <= a.getRow1() &&
                     a.getCol0() <= b.getCol1() && b.getCol0() <= a.getCol1();
      if (overlap && kernels[i].getKind() == kernels[j].getKind())
        return kernels[i].emitOpError()
               << "runs a " << stringifyKernelKind(kernels[i].getKind())
               << " kernel on cores " << rangeString(a)
               << ", which overlap the cores " << rangeString(b)
               << " of another: a core runs one kernel of each kind";
    }

  for (KernelOp kernel : kernels) {
    WalkResult walk = kernel.walk([&](Operation *op) {
      return failed(verifyUse(op, kernel, decls)) ? WalkResult::interrupt()
                                                  : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (kernel.getKind() == KernelKind::compute &&
        failed(verifyDstProtocol(kernel)))
      return failure();
    // Tile indices must be >= 0 even without a chip.
    WalkResult negative = kernel.walk([&](Operation *op) {
      for (Value index : dstOperands(op)) {
        std::optional<int64_t> value = getConstantIntValue(index);
        if (value && *value < 0) {
          op->emitOpError() << "Dst index must be >= 0, got " << *value;
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (negative.wasInterrupted())
      return failure();
  }

  llvm::Expected<std::optional<hw::Description>> description =
      descriptionOf(*this);
  if (!description)
    return emitOpError() << llvm::toString(description.takeError());
  if (!*description)
    return success();
  llvm::Expected<TileChip> chip = TileChip::fromDescription(**description);
  if (!chip)
    return emitOpError() << "chip '" << (*description)->name
                         << "' is not a tile chip: "
                         << llvm::toString(chip.takeError());
  return verifyAgainstChip(*this, *chip, decls);
}
