//===- TileDialect.cpp - The tile dialect ---------------------------------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"

using namespace mlir;
using namespace strata::tile;

#include "strata/Dialect/Tile/IR/TileDialect.cpp.inc"

void TileDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "strata/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}
