//===- TileNocOps.td - NoC transfers and semaphores --------*- tablegen -*-===//
//
// Data-movement kernels move bytes between DRAM pages, their own L1 and
// other cores' L1. Transfers are asynchronous: a read's data may only be used
// (e.g. pushed to a circular buffer) after tile.noc_read_barrier, and a
// written L1 region may only be reused after tile.noc_write_barrier. L1
// addresses are byte addresses, as given by tile.cb_write_ptr/cb_read_ptr
// (a buffer has the same address on every core that has it).
//
//===----------------------------------------------------------------------===//
#ifndef STRATA_DIALECT_TILE_NOC_OPS
#define STRATA_DIALECT_TILE_NOC_OPS

include "strata/Dialect/Tile/IR/TileBase.td"
include "strata/Dialect/Tile/IR/TileTraits.td"

class Tile_NocOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat([Tile_InDataMovementKernel], traits)>;

def Tile_NocReadTileOp : Tile_NocOp<"noc_read_tile"> {
  let summary = "Reads one page (tile) of a DRAM tensor into local L1";
  let description = [{
    `tile.noc_read_tile @a[%page] -> %addr` copies page `%page` from the
    DRAM bank the tensor's layout puts it in to L1 address `%addr`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$tensor, Index:$page,
                       Index:$l1_addr);
  let assemblyFormat = "$tensor `[` $page `]` `->` $l1_addr attr-dict";
}

def Tile_NocWriteTileOp : Tile_NocOp<"noc_write_tile"> {
  let summary = "Writes one page (tile) of a DRAM tensor from local L1";
  let arguments = (ins Index:$l1_addr, FlatSymbolRefAttr:$tensor,
                       Index:$page);
  let assemblyFormat = "$l1_addr `->` $tensor `[` $page `]` attr-dict";
}

def Tile_NocReadBytesOp : Tile_NocOp<"noc_read_bytes"> {
  let summary = "Reads bytes of one page of a DRAM tensor into local L1";
  let description = [{
    `tile.noc_read_bytes @a[%page] offset %o size %n -> %addr` copies `%n`
    bytes from byte `%o` of page `%page`; the range must stay in the page.
  }];
  let arguments = (ins FlatSymbolRefAttr:$tensor, Index:$page, Index:$offset,
                       Index:$size, Index:$l1_addr);
  let assemblyFormat = [{
    $tensor `[` $page `]` `offset` $offset `size` $size `->` $l1_addr attr-dict
  }];
}

def Tile_NocWriteBytesOp : Tile_NocOp<"noc_write_bytes"> {
  let summary = "Writes bytes of one page of a DRAM tensor from local L1";
  let arguments = (ins Index:$l1_addr, Index:$size, FlatSymbolRefAttr:$tensor,
                       Index:$page, Index:$offset);
  let assemblyFormat = [{
    $l1_addr `size` $size `->` $tensor `[` $page `]` `offset` $offset attr-dict
  }];
}

def Tile_NocReadL1Op : Tile_NocOp<"noc_read_l1"> {
  let summary = "Reads bytes from another core's L1 into local L1";
  let description = [{
    `tile.noc_read_l1 core [%r, %c] %src -> %dst size %n`.
  }];
  let arguments = (ins Index:$row, Index:$col, Index:$src_addr,
                       Index:$dst_addr, Index:$size);
  let assemblyFormat = [{
    `core` ` ` `[` $row `,` $col `]` $src_addr `->` $dst_addr `size` $size attr-dict
  }];
}

def Tile_NocWriteL1Op : Tile_NocOp<"noc_write_l1"> {
  let summary = "Writes bytes from local L1 into another core's L1";
  let arguments = (ins Index:$src_addr, Index:$row, Index:$col,
                       Index:$dst_addr, Index:$size);
  let assemblyFormat = [{
    $src_addr `->` `core` ` ` `[` $row `,` $col `]` $dst_addr `size` $size attr-dict
  }];
}

def Tile_NocWriteMulticastOp : Tile_NocOp<"noc_write_multicast"> {
  let summary = "Writes bytes from local L1 to a rectangle of cores";
  let description = [{
    `tile.noc_write_multicast %src -> cores [%r0, %c0]-[%r1, %c1] %dst size %n`
    writes to every core of the rectangle except the issuing one, with one
    injection into the NoC.
  }];
  let arguments = (ins Index:$src_addr, Index:$row0, Index:$col0,
                       Index:$row1, Index:$col1, Index:$dst_addr,
                       Index:$size);
  let assemblyFormat = [{
    $src_addr `->` `cores` custom<DynamicCoreRange>($row0, $col0, $row1, $col1)
    $dst_addr `size` $size attr-dict
  }];
}

def Tile_NocReadBarrierOp : Tile_NocOp<"noc_read_barrier"> {
  let summary = "Waits until every read this kernel issued has arrived";
  let assemblyFormat = "attr-dict";
}

def Tile_NocWriteBarrierOp : Tile_NocOp<"noc_write_barrier"> {
  let summary = "Waits until every write this kernel issued has landed";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Semaphores: one counter per core (tile.semaphore), waited on locally.
//===----------------------------------------------------------------------===//

def Tile_SemWaitOp : Tile_NocOp<"sem_wait"> {
  let summary = "Waits until the local semaphore equals a value";
  let arguments = (ins FlatSymbolRefAttr:$sem, Index:$value);
  let assemblyFormat = "$sem `,` $value attr-dict";
}

def Tile_SemSetOp : Tile_NocOp<"sem_set"> {
  let summary = "Sets the local semaphore";
  let arguments = (ins FlatSymbolRefAttr:$sem, Index:$value);
  let assemblyFormat = "$sem `,` $value attr-dict";
}

def Tile_SemIncOp : Tile_NocOp<"sem_inc"> {
  let summary = "Atomically adds to the semaphore of another core";
  let arguments = (ins FlatSymbolRefAttr:$sem, Index:$row, Index:$col,
                       Index:$value);
  let assemblyFormat =
      "$sem `core` ` ` `[` $row `,` $col `]` `,` $value attr-dict";
}

def Tile_SemSetMulticastOp : Tile_NocOp<"sem_set_multicast"> {
  let summary = "Copies the local semaphore's value to a rectangle of cores";
  let description = [{
    Like tile.noc_write_multicast, every core of the rectangle except the
    issuing one; posted after the writes this kernel issued before it.
  }];
  let arguments = (ins FlatSymbolRefAttr:$sem, Index:$row0, Index:$col0,
                       Index:$row1, Index:$col1);
  let assemblyFormat = [{
    $sem `->` `cores` custom<DynamicCoreRange>($row0, $col0, $row1, $col1)
    attr-dict
  }];
}

#endif // STRATA_DIALECT_TILE_NOC_OPS
