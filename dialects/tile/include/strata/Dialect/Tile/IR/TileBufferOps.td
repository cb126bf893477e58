//===- TileBufferOps.td - Circular buffers, core ids ------*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_BUFFER_OPS
#define STRATA_DIALECT_TILE_BUFFER_OPS

include "strata/Dialect/Tile/IR/TileBase.td"
include "strata/Dialect/Tile/IR/TileTraits.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Core coordinates
//===----------------------------------------------------------------------===//

def Tile_CoreRowOp : Tile_Op<"core_row", [Pure, Tile_InKernel]> {
  let summary = "The row of the core running the kernel";
  let results = (outs Index:$row);
  let assemblyFormat = "attr-dict";
}

def Tile_CoreColOp : Tile_Op<"core_col", [Pure, Tile_InKernel]> {
  let summary = "The column of the core running the kernel";
  let results = (outs Index:$col);
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Circular buffers. A producer reserves space at the back, writes it and
// pushes it; a consumer waits for tiles at the front, reads them and pops
// them. reserve_back and wait_front block until enough space or tiles are
// there; a count above the capacity can never be satisfied and is rejected.
//===----------------------------------------------------------------------===//

class Tile_BufferCountOp<string mnemonic, string what>
    : Tile_Op<mnemonic, [Tile_InKernel]> {
  let summary = what;
  let arguments = (ins FlatSymbolRefAttr:$cb, Index:$count);
  let assemblyFormat = "$cb `,` $count attr-dict";
}

def Tile_CBReserveBackOp : Tile_BufferCountOp<"cb_reserve_back",
    "Waits until `count` tiles are free at the back of a circular buffer"> {
  let description = [{
    Blocks until `count` slots are free, then makes them the writable
    region: writes go to `tile.cb_write_ptr` (slot 0) and the following
    slots, `tile.pack_tile` names a slot of it.
  }];
}

def Tile_CBPushBackOp : Tile_BufferCountOp<"cb_push_back",
    "Hands `count` written tiles at the back to the consumer"> {
  let description = [{
    The tiles must have been reserved (`tile.cb_reserve_back`).
  }];
}

def Tile_CBWaitFrontOp : Tile_BufferCountOp<"cb_wait_front",
    "Waits until `count` tiles are at the front of a circular buffer"> {
  let description = [{
    Blocks until `count` tiles were pushed and not popped; they are then
    readable at `tile.cb_read_ptr` and by index in compute ops.
  }];
}

def Tile_CBPopFrontOp : Tile_BufferCountOp<"cb_pop_front",
    "Frees `count` tiles at the front of a circular buffer"> {
}

def Tile_CBWritePtrOp : Tile_Op<"cb_write_ptr", [Tile_InKernel]> {
  let summary = "The L1 address of the first reserved slot at the back";
  let arguments = (ins FlatSymbolRefAttr:$cb);
  let results = (outs Index:$addr);
  let assemblyFormat = "$cb attr-dict";
}

def Tile_CBReadPtrOp : Tile_Op<"cb_read_ptr", [Tile_InKernel]> {
  let summary = "The L1 address of the tile at the front";
  let arguments = (ins FlatSymbolRefAttr:$cb);
  let results = (outs Index:$addr);
  let assemblyFormat = "$cb attr-dict";
}

#endif // STRATA_DIALECT_TILE_BUFFER_OPS
