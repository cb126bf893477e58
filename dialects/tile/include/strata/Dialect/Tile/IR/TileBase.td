//===- TileBase.td - The tile dialect ----------------------*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_BASE
#define STRATA_DIALECT_TILE_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::strata::tile";
  let summary = "Programs for a grid of tile cores with explicit SRAM";
  let description = [{
    The `tile` dialect is the own dialect of the tile-grid target: a chip of
    cores without caches, each with private SRAM (L1), circular buffers of
    32x32 tiles, a matrix engine and a vector engine that compute in an
    accumulator (Dst), and a network on chip (NoC) that moves data between
    DRAM banks and the cores' L1.

    A `tile.program` declares DRAM tensors (with their layout over the DRAM
    banks), circular buffers and semaphores, each on a rectangle of cores,
    and holds kernels of three kinds: `reader` and `writer` kernels move data
    (NoC ops), `compute` kernels unpack tiles, compute into Dst and pack
    results. Kernels use `scf` and `arith` for loops and index math and refer
    to the program's declarations by symbol:

    ```mlir
    tile.program @copy {
      tile.dram_tensor @a input : !tile.dram<64x64xbf16, #tile.interleaved>
      tile.circular_buffer @in cores [0, 0]-[0, 1] : !tile.cb<2x!tile.tile<32x32xbf16>>
      tile.kernel reader cores [0, 0]-[0, 1] {
        ...
        tile.cb_reserve_back @in, %c1
        %addr = tile.cb_write_ptr @in
        tile.noc_read_tile @a[%page] -> %addr
        tile.noc_read_barrier
        tile.cb_push_back @in, %c1
      }
      ...
    }
    ```

    When the module carries a `#strata.hw` description, the program is
    checked against the chip: the grid, the L1 capacity (the circular
    buffers and semaphores of every core must fit), the tile shape, the
    accumulator's capacity and the matrix engine's fidelities.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerTypes();
  }];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // STRATA_DIALECT_TILE_BASE
