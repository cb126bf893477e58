//===- TileChip.h - What the tile target reads from a chip -*- C++ -*-===//
//
// The numbers of a hardware description (docs/hardware-description.md) that
// the tile dialect's verifier and the emulator need: the core grid, L1, the
// DRAM banks, the tile and face shapes, the accumulator, the circular-buffer
// limit and the matrix engine's fidelities. Read once from the description
// (its `target_options` for the plugin-specific ones), never hard-coded.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_IR_TILECHIP_H
#define STRATA_DIALECT_TILE_IR_TILECHIP_H

#include "strata/HW/Description.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace strata::tile {

struct TileChip {
  std::string name;
  int64_t rows = 0, cols = 0;           // compute grid (target_options.grid)
  int64_t l1Bytes = 0;                  // capacity of the core's scratchpad
  int64_t l1Alignment = 1;              // alignment of buffers in L1
  std::string l1Name;                   // the scratchpad's memory level name
  int64_t dramBanks = 1;                // banks of the DRAM level
  int64_t dramBankBytes = 0;            // capacity of one bank
  int64_t dramAlignment = 1;            // alignment of tensors in a bank
  int64_t tileRows = 32, tileCols = 32; // target_options.tile
  int64_t faceRows = 16, faceCols = 16; // target_options.face
  int64_t dstTilesF32 = 0, dstTilesBf16 = 0; // target_options.dst
  bool dstDoubleBuffered = false;
  int64_t maxCircularBuffers = 0; // target_options.circular_buffers
  /// Fidelity names of the matrix intrinsics (union, in order).
  std::vector<std::string> fidelities;
  /// Element types the matrix intrinsics take as A operands.
  std::vector<std::string> matrixTypes;
  /// Per A operand type, the mantissa bits the matrix engine keeps of each
  /// input element (absent: all of the type's; f32 read as TF32: 10).
  std::map<std::string, int64_t> inputMantissaBits;
  /// Per A operand type, the fidelities of its intrinsics (in order).
  std::map<std::string, std::vector<std::string>> fidelitiesByType;
  /// Per A operand type, the fidelity compiled kernels use: its first
  /// intrinsic's default_fidelity (absent: the lowering's own choice).
  std::map<std::string, std::string> defaultFidelityByType;

  /// Tiles of Dst one acquire gives (half of Dst when double-buffered).
  int64_t dstCapacity(bool f32) const;
  /// `bytes` rounded up to the L1 alignment.
  int64_t alignL1(int64_t bytes) const;

  /// Reads the fields above; an error names the missing or invalid field.
  static llvm::Expected<TileChip> fromDescription(const hw::Description &d);
};

/// The description attached to the module enclosing `op` (`strata.hw`),
/// loaded and validated; nullopt when there is none. A description that does
/// not load is an error.
llvm::Expected<std::optional<hw::Description>>
descriptionOf(mlir::Operation *op);

} // namespace strata::tile

#endif // STRATA_DIALECT_TILE_IR_TILECHIP_H
