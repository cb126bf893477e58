//===- TileTraits.td - Where tile ops may appear -----------*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_TRAITS
#define STRATA_DIALECT_TILE_TRAITS

include "mlir/IR/OpBase.td"

// The op runs inside a tile.kernel of any kind.
def Tile_InKernel : NativeOpTrait<"InKernel"> {
  let cppNamespace = "::strata::tile";
}
// The op runs on the compute processors: only in a compute kernel.
def Tile_InComputeKernel : NativeOpTrait<"InComputeKernel"> {
  let cppNamespace = "::strata::tile";
}
// The op drives the NoC: only in a reader or writer kernel.
def Tile_InDataMovementKernel : NativeOpTrait<"InDataMovementKernel"> {
  let cppNamespace = "::strata::tile";
}

#endif // STRATA_DIALECT_TILE_TRAITS
