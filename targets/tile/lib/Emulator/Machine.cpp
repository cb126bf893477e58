//===- Machine.cpp - Setting up the chip's memory and kernel instances ----===//
#include "Machine.h"

#include "strata/Dialect/Tile/IR/TileL1Layout.h"

#include "mlir/IR/Diagnostics.h"

#include <cstring>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

Machine::Machine(ProgramOp program, TileChip chip)
    : program(program), chip(std::move(chip)) {}

const TileGeometry *Machine::geometryOf(TileType type) {
  for (const auto &geometry : geometries)
    if (geometry->rows() == type.getRows() &&
        geometry->cols() == type.getCols() &&
        geometry->faceRows() == type.getFaceRows() &&
        geometry->faceCols() == type.getFaceCols())
      return geometry.get();
  geometries.push_back(std::make_unique<TileGeometry>(
      type.getRows(), type.getCols(), type.getFaceRows(), type.getFaceCols()));
  return geometries.back().get();
}

static TileFormat formatOf(Type element) {
  if (isa<Bfp8Type>(element))
    return TileFormat::BFP8;
  if (isa<Bfp4Type>(element))
    return TileFormat::BFP4;
  return element.isBF16() ? TileFormat::BF16 : TileFormat::F32;
}

/// Where the layout attribute puts the pages of `type`.
static DramPlacement placementOf(DramTensorType type) {
  DramPlacement placement;
  placement.pageBytes = type.getPageBytes();
  placement.tilesPerRow = type.getTileColsCount();
  if (auto sharded = dyn_cast<ShardedAttr>(type.getLayout())) {
    TileType tile = type.getTileType();
    placement.sharded = true;
    placement.shardTileRows = sharded.getShard()[0] / tile.getRows();
    placement.shardTileCols = sharded.getShard()[1] / tile.getCols();
    placement.shardsPerRow = type.getShape()[1] / sharded.getShard()[1];
  }
  return placement;
}

LogicalResult Machine::initialize() {
  if (program.getBody().empty())
    return success();
  Block &body = program.getBody().front();
  int64_t cores = chip.rows * chip.cols;
  dram = Dram(chip.dramBanks, chip.dramBankBytes, chip.dramAlignment);

  // Every core range must lie in the grid (the verifier checks it when the
  // module names the chip; the emulator may be given a bare program).
  for (Operation &op : body)
    if (auto range = op.getAttrOfType<CoreRangeAttr>("cores"))
      if (range.getRow1() >= chip.rows || range.getCol1() >= chip.cols)
        return op.emitOpError()
               << "uses cores outside the " << chip.rows << "x" << chip.cols
               << " grid of chip '" << chip.name << "'";

  L1Layout layout = layoutL1(program, chip);
  if (layout.overflow)
    return layout.overflow->decl->emitOpError()
           << "does not fit in L1 of core [" << layout.overflow->row << ", "
           << layout.overflow->col << "] of chip '" << chip.name
           << "' (run the verifier with the chip attached for the details)";
  for (int64_t core = 0; core < cores; ++core) {
    auto *bytes = static_cast<uint8_t *>(std::calloc(chip.l1Bytes, 1));
    if (!bytes)
      return program.emitOpError() << "cannot allocate the " << chip.l1Bytes
                                   << " bytes of L1 of " << cores << " cores";
    memory.emplace_back(bytes);
  }

  for (Operation &op : body) {
    if (auto decl = dyn_cast<DramTensorOp>(op)) {
      DramTensorType type = decl.getTensorType();
      TensorState state;
      state.decl = decl;
      state.info.name = decl.getSymName().str();
      state.info.role =
          decl.getRole() == TensorRole::input    ? TensorInfo::Role::Input
          : decl.getRole() == TensorRole::output ? TensorInfo::Role::Output
                                                 : TensorInfo::Role::Scratch;
      state.info.rows = type.getShape()[0];
      state.info.cols = type.getShape()[1];
      state.info.format = formatOf(type.getElementType());
      state.placement = placementOf(type);
      state.pageBytes = type.getPageBytes();
      state.tilesPerRow = type.getTileColsCount();
      state.pages = type.getNumPages();
      state.geometry = geometryOf(type.getTileType());
      int64_t bytes = state.placement.bytesPerBank(state.pages, chip.dramBanks);
      std::optional<int64_t> base = dram.allocate(bytes);
      if (!base)
        return decl.emitOpError()
               << "needs " << bytes << " bytes in each of the "
               << chip.dramBanks << " DRAM banks of chip '" << chip.name
               << "', which do not have them left (" << chip.dramBankBytes
               << " bytes per bank)";
      state.placement.base = *base;
      tensorIndex[decl.getSymNameAttr()] = int(tensors.size());
      tensors.push_back(std::move(state));
      tensorInfos.push_back(tensors.back().info);
    } else if (auto decl = dyn_cast<CircularBufferOp>(op)) {
      TileType tile = decl.getBufferType().getTileType();
      if (tile.getRows() != chip.tileRows || tile.getCols() != chip.tileCols)
        return decl.emitOpError()
               << "holds " << tile.getRows() << "x" << tile.getCols()
               << " tiles; the engines of chip '" << chip.name << "' work on "
               << chip.tileRows << "x" << chip.tileCols << " tiles";
      const L1Allocation *allocation = layout.find(&op);
      CircularBufferType type = decl.getBufferType();
      int index = int(buffers.size() / cores);
      bufferIndex[decl.getSymNameAttr()] = index;
      CoreRangeAttr range = decl.getCores();
      for (int64_t core = 0; core < cores; ++core) {
        BufferState state;
        state.present = range.contains(core / chip.cols, core % chip.cols);
        state.name = decl.getSymName().str();
        state.base = allocation->address;
        state.capacity = type.getCapacity();
        state.tileBytes = type.getTileType().getSizeInBytes();
        state.format = formatOf(type.getTileType().getElementType());
        state.geometry = geometryOf(type.getTileType());
        if (state.present) {
          state.pushEvents.resize(state.capacity);
          state.popEvents.resize(state.capacity);
        }
        buffers.push_back(std::move(state));
      }
    } else if (auto decl = dyn_cast<SemaphoreOp>(op)) {
      int index = int(semaphores.size() / cores);
      semaphoreIndex[decl.getSymNameAttr()] = index;
      semaphoreAddress.push_back(layout.find(&op)->address);
      for (int64_t core = 0; core < cores; ++core) {
        SemaphoreState state;
        state.present =
            decl.getCores().contains(core / chip.cols, core % chip.cols);
        state.name = decl.getSymName().str();
        state.value = decl.getInit();
        semaphores.push_back(std::move(state));
      }
    }
  }

  // Kernel instances: kernels in order, cores of each row-major.
  trace.rows = chip.rows;
  trace.cols = chip.cols;
  for (auto kernel : body.getOps<KernelOp>()) {
    WalkResult walk = kernel.walk([&](Operation *op) {
      if (op == kernel.getOperation() || isInterpretable(op))
        return WalkResult::advance();
      op->emitOpError() << "cannot be run by the emulator: kernels may use "
                           "tile ops, scf.for, scf.if and arith ops";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      return failure();
    CoreRangeAttr range = kernel.getCores();
    bool f32 = kernel.getDstElementType().isF32();
    for (int64_t row = range.getRow0(); row <= range.getRow1(); ++row)
      for (int64_t col = range.getCol0(); col <= range.getCol1(); ++col) {
        Instance inst;
        inst.kernel = kernel;
        inst.kind = kernel.getKind();
        inst.row = row;
        inst.col = col;
        inst.traceIndex = int32_t(trace.kernels.size());
        if (!kernel.getBody().empty()) {
          Block *block = &kernel.getBody().front();
          inst.frames.push_back(
              Frame{block, block->begin(), kernel.getOperation()});
        } else {
          inst.finished = true;
        }
        if (inst.kind == KernelKind::compute) {
          inst.dstF32 = f32;
          inst.dstCapacity = chip.dstCapacity(f32);
          inst.dstTiles.assign(inst.dstCapacity * chip.tileRows * chip.tileCols,
                               0.0f);
          inst.dstWritten.assign(inst.dstCapacity, 0);
        }
        KernelTrace kt;
        kt.kind = inst.kind == KernelKind::reader    ? TraceKernelKind::Reader
                  : inst.kind == KernelKind::compute ? TraceKernelKind::Compute
                                                     : TraceKernelKind::Writer;
        kt.row = row;
        kt.col = col;
        kt.name = stringifyKernelKind(inst.kind).str();
        kt.dstF32 = f32;
        kt.fidelity = kernel.getFidelityName().str();
        trace.kernels.push_back(std::move(kt));
        instances.push_back(std::move(inst));
      }
  }
  stats.instances = int64_t(instances.size());
  return success();
}

BufferState *Machine::buffer(Instance &inst, FlatSymbolRefAttr symbol) {
  auto it = bufferIndex.find(symbol.getAttr());
  if (it == bufferIndex.end())
    return nullptr;
  BufferState &state = buffers[it->second * chip.rows * chip.cols +
                               coreIndex(inst.row, inst.col)];
  return state.present ? &state : nullptr;
}

SemaphoreState *Machine::semaphore(int64_t row, int64_t col,
                                   FlatSymbolRefAttr symbol) {
  auto it = semaphoreIndex.find(symbol.getAttr());
  if (it == semaphoreIndex.end())
    return nullptr;
  SemaphoreState &state =
      semaphores[it->second * chip.rows * chip.cols + coreIndex(row, col)];
  return state.present ? &state : nullptr;
}

void Machine::setSemaphore(int64_t row, int64_t col, FlatSymbolRefAttr symbol,
                           SemaphoreState &state, int64_t value,
                           EventRef event) {
  state.value = value;
  state.lastWrite = event;
  int32_t word = int32_t(value);
  int64_t address =
      semaphoreAddress[semaphoreIndex.find(symbol.getAttr())->second];
  std::memcpy(l1(row, col) + address, &word, 4);
}

TensorState *Machine::tensor(FlatSymbolRefAttr symbol) {
  auto it = tensorIndex.find(symbol.getAttr());
  return it == tensorIndex.end() ? nullptr : &tensors[it->second];
}

EventRef Machine::record(Instance &inst, Event event) {
  std::vector<Event> &events = trace.kernels[inst.traceIndex].events;
  events.push_back(event);
  return EventRef{inst.traceIndex, int32_t(events.size() - 1)};
}

InFlightDiagnostic Machine::error(Operation *op, Instance &inst) {
  return op->emitError() << stringifyKernelKind(inst.kind)
                         << " kernel on core [" << inst.row << ", " << inst.col
                         << "]: ";
}

LogicalResult Machine::checkL1(Operation *op, Instance &inst, int64_t address,
                               int64_t bytes) {
  if (address >= 0 && bytes >= 0 && address + bytes <= chip.l1Bytes)
    return success();
  return error(op, inst) << "L1 bytes [" << address << ", " << address + bytes
                         << ") are outside the " << chip.l1Bytes
                         << " bytes of L1";
}

LogicalResult Machine::checkCore(Operation *op, Instance &inst, int64_t row,
                                 int64_t col) {
  if (row >= 0 && col >= 0 && row < chip.rows && col < chip.cols)
    return success();
  return error(op, inst) << "core [" << row << ", " << col
                         << "] is outside the " << chip.rows << "x" << chip.cols
                         << " grid";
}

Step Machine::block(Operation *op, Instance &inst, std::string reason) {
  inst.blockedOp = op;
  inst.blockedReason = std::move(reason);
  return Step::Blocked;
}

LogicalResult Machine::writeTensor(StringRef name, ArrayRef<float> rowMajor) {
  for (TensorState &state : tensors) {
    if (state.info.name != name)
      continue;
    if (int64_t(rowMajor.size()) != state.info.rows * state.info.cols)
      return state.decl.emitOpError()
             << "is written with " << rowMajor.size() << " values, expected "
             << state.info.rows * state.info.cols;
    const TileGeometry &geometry = *state.geometry;
    std::vector<float> tile(geometry.elements());
    for (int64_t page = 0; page < state.pages; ++page) {
      int64_t r0 = page / state.tilesPerRow * geometry.rows();
      int64_t c0 = page % state.tilesPerRow * geometry.cols();
      for (int64_t r = 0; r < geometry.rows(); ++r)
        for (int64_t c = 0; c < geometry.cols(); ++c)
          tile[r * geometry.cols() + c] =
              rowMajor[(r0 + r) * state.info.cols + c0 + c];
      auto [bank, offset] = state.placement.locate(page, chip.dramBanks);
      geometry.pack(tile.data(), state.info.format, dram.at(bank, offset));
    }
    return success();
  }
  return program.emitOpError() << "has no DRAM tensor @" << name;
}

FailureOr<std::vector<float>> Machine::readTensor(StringRef name) {
  for (TensorState &state : tensors) {
    if (state.info.name != name)
      continue;
    const TileGeometry &geometry = *state.geometry;
    std::vector<float> values(state.info.rows * state.info.cols);
    std::vector<float> tile(geometry.elements());
    for (int64_t page = 0; page < state.pages; ++page) {
      auto [bank, offset] = state.placement.locate(page, chip.dramBanks);
      geometry.unpack(dram.at(bank, offset), state.info.format, tile.data());
      int64_t r0 = page / state.tilesPerRow * geometry.rows();
      int64_t c0 = page % state.tilesPerRow * geometry.cols();
      for (int64_t r = 0; r < geometry.rows(); ++r)
        for (int64_t c = 0; c < geometry.cols(); ++c)
          values[(r0 + r) * state.info.cols + c0 + c] =
              tile[r * geometry.cols() + c];
    }
    return values;
  }
  return program.emitOpError() << "has no DRAM tensor @" << name;
}
