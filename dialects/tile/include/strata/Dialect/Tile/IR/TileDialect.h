//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Programs of reader, compute and writer kernels for a grid of tile cores
// (docs/tile-target.md): types, attributes and ops.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_IR_TILEDIALECT_H
#define STRATA_DIALECT_TILE_IR_TILEDIALECT_H

#include "strata/Dialect/Tile/IR/TileTraits.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "strata/Dialect/Tile/IR/TileDialect.h.inc"
#include "strata/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "strata/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "strata/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "strata/Dialect/Tile/IR/TileOps.h.inc"

namespace strata::tile {
/// The module attribute holding the constant tensors programs read: a
/// dictionary from the name a DRAM tensor's `bind` gives to its dense
/// value, which the runtime writes before the programs run.
inline constexpr llvm::StringLiteral kConstantsAttrName = "tile.constants";
} // namespace strata::tile

#endif // STRATA_DIALECT_TILE_IR_TILEDIALECT_H
