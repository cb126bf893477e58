//===- Emulator.cpp - The emulator's public interface ---------------------===//
#include "strata/Tile/Emulator/Emulator.h"
#include "Machine.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

Emulator::Emulator(std::unique_ptr<Machine> machine)
    : machine(std::move(machine)) {}

Emulator::~Emulator() = default;

FailureOr<std::unique_ptr<Emulator>>
Emulator::create(ProgramOp program, const hw::Description &description) {
  llvm::Expected<TileChip> chip = TileChip::fromDescription(description);
  if (!chip)
    return program.emitOpError() << "cannot run on chip '" << description.name
                                 << "': " << llvm::toString(chip.takeError());
  auto machine = std::make_unique<Machine>(program, std::move(*chip));
  if (failed(machine->initialize()))
    return failure();
  return std::unique_ptr<Emulator>(new Emulator(std::move(machine)));
}

const std::vector<TensorInfo> &Emulator::tensors() const {
  return machine->tensorInfos;
}

LogicalResult Emulator::writeTensor(llvm::StringRef name,
                                    llvm::ArrayRef<float> rowMajor) {
  return machine->writeTensor(name, rowMajor);
}

FailureOr<std::vector<float>> Emulator::readTensor(llvm::StringRef name) {
  return machine->readTensor(name);
}

LogicalResult Emulator::run() { return machine->run(); }

const Trace &Emulator::trace() const { return machine->trace; }

const RunStats &Emulator::stats() const { return machine->stats; }
