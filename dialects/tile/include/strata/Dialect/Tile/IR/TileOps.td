//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// One file per family: the program and its declarations, circular-buffer and
// core ops, NoC (data-movement) ops, and compute ops.
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_OPS
#define STRATA_DIALECT_TILE_OPS

include "strata/Dialect/Tile/IR/TileProgramOps.td"
include "strata/Dialect/Tile/IR/TileBufferOps.td"
include "strata/Dialect/Tile/IR/TileNocOps.td"
include "strata/Dialect/Tile/IR/TileComputeOps.td"

#endif // STRATA_DIALECT_TILE_OPS
