//===- TileTypes.cpp - Types of the tile dialect --------------------------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace strata::tile;

#define GET_TYPEDEF_CLASSES
#include "strata/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "strata/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
}

/// The element types tiles hold.
static bool isTileElementType(Type type) {
  return type.isBF16() || type.isF32() || isa<Bfp8Type, Bfp4Type>(type);
}

/// `RxC` (no trailing x).
static ParseResult parseShape2(AsmParser &parser, int64_t &rows,
                               int64_t &cols) {
  SmallVector<int64_t, 2> dims;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return failure();
  if (dims.size() != 2)
    return parser.emitError(loc) << "expected a shape of two dimensions";
  rows = dims[0];
  cols = dims[1];
  return success();
}

//===----------------------------------------------------------------------===//
// TileType: !tile.tile<32x32xbf16[, face 16x16]>
//===----------------------------------------------------------------------===//

int64_t TileType::getExponentBytes() const {
  if (!isa<Bfp8Type, Bfp4Type>(getElementType()))
    return 0;
  // One exponent per 16 elements, the section padded to 16 bytes.
  return (getNumElements() / 16 + 15) / 16 * 16;
}

int64_t TileType::getSizeInBytes() const {
  Type element = getElementType();
  if (isa<Bfp8Type>(element))
    return getExponentBytes() + getNumElements();
  if (isa<Bfp4Type>(element))
    return getExponentBytes() + getNumElements() / 2;
  return getNumElements() * (element.getIntOrFloatBitWidth() / 8);
}

Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t, 2> dims;
  Type element;
  int64_t faceRows = 16, faceCols = 16;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/false) ||
      parser.parseType(element))
    return {};
  if (dims.size() != 2) {
    parser.emitError(loc) << "expected a tile of two dimensions";
    return {};
  }
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("face") || parseShape2(parser, faceRows, faceCols)))
    return {};
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims[0], dims[1], element, faceRows, faceCols);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<" << getRows() << "x" << getCols() << "x" << getElementType();
  if (getFaceRows() != 16 || getFaceCols() != 16)
    printer << ", face " << getFaceRows() << "x" << getFaceCols();
  printer << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t rows, int64_t cols, Type elementType,
                               int64_t faceRows, int64_t faceCols) {
  if (rows < 1 || cols < 1 || faceRows < 1 || faceCols < 1)
    return emitError() << "tile and face dimensions must be positive";
  if (rows % faceRows != 0 || cols % faceCols != 0)
    return emitError() << "face " << faceRows << "x" << faceCols
                       << " does not divide tile " << rows << "x" << cols;
  if (!isTileElementType(elementType))
    return emitError()
           << "tile element type must be bf16, f32, !tile.bfp8 or !tile.bfp4, "
              "got "
           << elementType;
  if (isa<Bfp8Type, Bfp4Type>(elementType) && (rows * cols) % 16 != 0)
    return emitError() << "a block-float tile shares one exponent per 16 "
                          "elements: "
                       << rows << "x" << cols << " is not a multiple of 16";
  return success();
}

//===----------------------------------------------------------------------===//
// CircularBufferType: !tile.cb<4x!tile.tile<32x32xbf16>>
//===----------------------------------------------------------------------===//

Type CircularBufferType::parse(AsmParser &parser) {
  SmallVector<int64_t, 1> dims;
  Type tile;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(dims, /*allowDynamic=*/false) ||
      parser.parseType(tile) || parser.parseGreater())
    return {};
  if (dims.size() != 1) {
    parser.emitError(loc)
        << "expected a capacity: !tile.cb<N x !tile.tile<...>>";
    return {};
  }
  auto tileType = dyn_cast<TileType>(tile);
  if (!tileType) {
    parser.emitError(loc) << "circular buffers hold !tile.tile, got " << tile;
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    dims[0], tileType);
}

void CircularBufferType::print(AsmPrinter &printer) const {
  printer << "<" << getCapacity() << "x" << getTileType() << ">";
}

LogicalResult
CircularBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                           int64_t capacity, TileType tileType) {
  if (capacity < 1)
    return emitError() << "a circular buffer holds at least one tile, got "
                       << capacity;
  return success();
}

//===----------------------------------------------------------------------===//
// DramTensorType: !tile.dram<RxCxT, layout[, tile RxC][, face RxC]>
//===----------------------------------------------------------------------===//

int64_t DramTensorType::getTileRowsCount() const {
  return getShape()[0] / getTileType().getRows();
}

int64_t DramTensorType::getTileColsCount() const {
  return getShape()[1] / getTileType().getCols();
}

Type DramTensorType::parse(AsmParser &parser) {
  SmallVector<int64_t, 2> shape;
  Type element;
  Attribute layout;
  int64_t tileRows = 32, tileCols = 32, faceRows = 16, faceCols = 16;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(element) || parser.parseComma() ||
      parser.parseAttribute(layout))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key))
      return {};
    if (key == "tile") {
      if (parseShape2(parser, tileRows, tileCols))
        return {};
    } else if (key == "face") {
      if (parseShape2(parser, faceRows, faceCols))
        return {};
    } else {
      parser.emitError(loc) << "expected 'tile' or 'face', got '" << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  auto emit = [&] { return parser.emitError(loc); };
  auto tile = TileType::getChecked(emit, parser.getContext(), tileRows,
                                   tileCols, element, faceRows, faceCols);
  if (!tile)
    return {};
  return getChecked(emit, parser.getContext(), shape, layout, tile);
}

void DramTensorType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType() << ", " << getLayout();
  TileType tile = getTileType();
  if (tile.getRows() != 32 || tile.getCols() != 32)
    printer << ", tile " << tile.getRows() << "x" << tile.getCols();
  if (tile.getFaceRows() != 16 || tile.getFaceCols() != 16)
    printer << ", face " << tile.getFaceRows() << "x" << tile.getFaceCols();
  printer << ">";
}

LogicalResult
DramTensorType::verify(function_ref<InFlightDiagnostic()> emitError,
                       ArrayRef<int64_t> shape, Attribute layout,
                       TileType tile) {
  if (shape.size() != 2)
    return emitError() << "DRAM tensors are 2-D, got rank " << shape.size();
  if (shape[0] < 1 || shape[1] < 1 || shape[0] % tile.getRows() != 0 ||
      shape[1] % tile.getCols() != 0)
    return emitError() << "DRAM tensor shape " << shape[0] << "x" << shape[1]
                       << " is not a positive multiple of the tile "
                       << tile.getRows() << "x" << tile.getCols();
  if (isa<InterleavedAttr>(layout))
    return success();
  auto sharded = dyn_cast<ShardedAttr>(layout);
  if (!sharded)
    return emitError() << "DRAM layout must be #tile.interleaved or "
                          "#tile.sharded<...>, got "
                       << layout;
  ArrayRef<int64_t> shard = sharded.getShard();
  if (shard.size() != 2 || shard[0] < 1 || shard[1] < 1 ||
      shard[0] % tile.getRows() != 0 || shard[1] % tile.getCols() != 0 ||
      shape[0] % shard[0] != 0 || shape[1] % shard[1] != 0)
    return emitError() << "shard shape must be two positive multiples of the "
                          "tile that divide the tensor shape "
                       << shape[0] << "x" << shape[1];
  switch (sharded.getStrategy()) {
  case ShardStrategy::height:
    if (shard[1] != shape[1])
      return emitError() << "height sharding keeps whole rows: shard columns "
                         << shard[1] << " must equal the tensor's " << shape[1];
    break;
  case ShardStrategy::width:
    if (shard[0] != shape[0])
      return emitError() << "width sharding keeps whole columns: shard rows "
                         << shard[0] << " must equal the tensor's " << shape[0];
    break;
  case ShardStrategy::block:
    break;
  }
  return success();
}
