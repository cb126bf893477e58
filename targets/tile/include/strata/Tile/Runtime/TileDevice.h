//===- TileDevice.h - The runtime device of tile chips ----------*- C++ -*-===//
//
// A runtime::Device (strata/Runtime/Device.h) that runs tile programs on the
// emulator. An executable is a file of tile-dialect IR; launching `name`
// runs its tile.program @name with one buffer per DRAM input tensor, then
// one per output tensor, in declaration order (row-major host data of the
// tensor's element type, f32 or bf16). The device's timer reports the
// cycle model's predicted time of the launches in between, not wall time.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_TILE_RUNTIME_TILEDEVICE_H
#define STRATA_TILE_RUNTIME_TILEDEVICE_H

#include "strata/HW/Description.h"
#include "strata/Runtime/Device.h"

#include <memory>

namespace strata::tile {

/// The device of chip `chip` (a tile chip: the emulator and the cycle model
/// must be able to read it).
llvm::Expected<std::unique_ptr<runtime::Device>>
createTileDevice(const hw::Description &chip);

} // namespace strata::tile

#endif // STRATA_TILE_RUNTIME_TILEDEVICE_H
