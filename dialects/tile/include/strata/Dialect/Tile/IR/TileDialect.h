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

#endif // STRATA_DIALECT_TILE_IR_TILEDIALECT_H
