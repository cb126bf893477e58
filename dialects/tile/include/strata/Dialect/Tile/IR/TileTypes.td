//===- TileTypes.td - Types of the tile dialect ------------*- tablegen -*-===//
#ifndef STRATA_DIALECT_TILE_TYPES
#define STRATA_DIALECT_TILE_TYPES

include "strata/Dialect/Tile/IR/TileBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Tile_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tile_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// Block floating point: 16 consecutive stored elements (a face row) share
// one 8-bit exponent; each element is a sign and a magnitude of 7 (bfp8) or
// 3 (bfp4) bits without a hidden one (value = sign * mag / 2^6 (2^2) *
// 2^(exp - 127)). A stored tile is its exponents (one byte per 16 elements,
// padded to 16 bytes) followed by its elements (bfp4: two per byte, the
// first in the low nibble). tt-isa-documentation FloatBitPatterns.md "BFP".
def Tile_Bfp8Type : Tile_Type<"Bfp8", "bfp8"> {
  let summary = "Block floating point, 8 bits per element (BFLOAT8_B)";
}
def Tile_Bfp4Type : Tile_Type<"Bfp4", "bfp4"> {
  let summary = "Block floating point, 4 bits per element (BFLOAT4_B)";
}

def Tile_TileType : Tile_Type<"Tile", "tile"> {
  let summary = "A tile of rows x cols elements stored as faces";
  let description = [{
    `!tile.tile<32x32xbf16>` is the unit every engine works on. In memory
    (L1, DRAM pages) a tile is stored face by face: the faces (16x16 unless
    given, `!tile.tile<32x32xbf16, face 16x32>`) in row-major order, each
    face's elements in row-major order. Element types: bf16, f32 and the
    block-float `!tile.bfp8` / `!tile.bfp4`, whose tiles store their shared
    exponents before the elements.
  }];
  let parameters = (ins "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType,
                        "int64_t":$faceRows, "int64_t":$faceCols);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "int64_t":$rows, "int64_t":$cols,
                                        "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), rows, cols, elementType,
                   16, 16);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Bytes of the whole tile as stored (block floats: exponents and
    /// elements), and of its shared exponents (0 unless block float).
    int64_t getSizeInBytes() const;
    int64_t getExponentBytes() const;
    int64_t getNumElements() const { return getRows() * getCols(); }
  }];
}

def Tile_CircularBufferType : Tile_Type<"CircularBuffer", "cb"> {
  let summary = "A circular buffer of tiles in a core's L1";
  let description = [{
    `!tile.cb<4x!tile.tile<32x32xbf16>>` holds up to 4 tiles: a producer
    reserves space at its back and pushes tiles, a consumer waits for tiles
    at its front and pops them. It occupies capacity x tile bytes of L1.
  }];
  let parameters = (ins "int64_t":$capacity, "TileType":$tileType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of L1 the buffer occupies (before alignment).
    int64_t getSizeInBytes() const {
      return getCapacity() * getTileType().getSizeInBytes();
    }
  }];
}

def Tile_DramTensorType : Tile_Type<"DramTensor", "dram"> {
  let summary = "A tensor in DRAM, stored as pages of tiles over the banks";
  let description = [{
    `!tile.dram<1024x1024xbf16, #tile.interleaved>`: a 2-D tensor whose
    dimensions are multiples of the tile's. It is stored in tile layout: page
    p is the tile at (p / tiles per row, p % tiles per row), laid out as a
    `!tile.tile` (faces), and the layout attribute (`#tile.interleaved` or
    `#tile.sharded<...>`) places the pages on the DRAM banks. Tiles are 32x32
    with 16x16 faces unless given: `!tile.dram<64x64xf32, #tile.interleaved,
    tile 16x32, face 16x16>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Attribute":$layout,
                        "TileType":$tileType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::mlir::Type getElementType() const { return getTileType().getElementType(); }
    /// Tiles along each dimension and in total (one page per tile).
    int64_t getTileRowsCount() const;
    int64_t getTileColsCount() const;
    int64_t getNumPages() const { return getTileRowsCount() * getTileColsCount(); }
    int64_t getPageBytes() const { return getTileType().getSizeInBytes(); }
    int64_t getSizeInBytes() const { return getNumPages() * getPageBytes(); }
  }];
}

#endif // STRATA_DIALECT_TILE_TYPES
