//===- TileAttrs.cpp - Attributes and enums of the tile dialect -----------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace strata::tile;

#include "strata/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "strata/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "strata/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

/// `[row, col]`.
static ParseResult parseCoord(AsmParser &parser, int64_t &row, int64_t &col) {
  return failure(parser.parseLSquare() || parser.parseInteger(row) ||
                 parser.parseComma() || parser.parseInteger(col) ||
                 parser.parseRSquare());
}

/// The body of a core range: `[r0, c0]-[r1, c1]`.
static FailureOr<CoreRangeAttr> parseRangeBody(AsmParser &parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  int64_t r0, c0, r1, c1;
  if (parseCoord(parser, r0, c0) || parser.parseMinus() ||
      parseCoord(parser, r1, c1))
    return failure();
  return CoreRangeAttr::getChecked([&] { return parser.emitError(loc); },
                                   parser.getContext(), r0, c0, r1, c1);
}

static void printRangeBody(AsmPrinter &printer, CoreRangeAttr range) {
  printer << "[" << range.getRow0() << ", " << range.getCol0() << "]-["
          << range.getRow1() << ", " << range.getCol1() << "]";
}

Attribute CoreRangeAttr::parse(AsmParser &parser, Type) {
  FailureOr<CoreRangeAttr> range;
  if (parser.parseLess() || failed(range = parseRangeBody(parser)) ||
      parser.parseGreater())
    return {};
  return *range;
}

void CoreRangeAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printRangeBody(printer, *this);
  printer << ">";
}

LogicalResult
CoreRangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t row0, int64_t col0, int64_t row1, int64_t col1) {
  if (row0 < 0 || col0 < 0)
    return emitError() << "core coordinates must be >= 0, got [" << row0 << ", "
                       << col0 << "]";
  if (row1 < row0 || col1 < col0)
    return emitError() << "core range [" << row0 << ", " << col0 << "]-["
                       << row1 << ", " << col1
                       << "] is empty: the second corner must not be above or "
                          "left of the first";
  return success();
}

namespace strata::tile {

ParseResult parseCoreRange(OpAsmParser &parser, CoreRangeAttr &range) {
  FailureOr<CoreRangeAttr> parsed = parseRangeBody(parser);
  if (failed(parsed))
    return failure();
  range = *parsed;
  return success();
}

void printCoreRange(OpAsmPrinter &printer, Operation *, CoreRangeAttr range) {
  printRangeBody(printer, range);
}

ParseResult parseDynamicCoreRange(OpAsmParser &parser,
                                  OpAsmParser::UnresolvedOperand &row0,
                                  OpAsmParser::UnresolvedOperand &col0,
                                  OpAsmParser::UnresolvedOperand &row1,
                                  OpAsmParser::UnresolvedOperand &col1) {
  return failure(parser.parseLSquare() || parser.parseOperand(row0) ||
                 parser.parseComma() || parser.parseOperand(col0) ||
                 parser.parseRSquare() || parser.parseMinus() ||
                 parser.parseLSquare() || parser.parseOperand(row1) ||
                 parser.parseComma() || parser.parseOperand(col1) ||
                 parser.parseRSquare());
}

void printDynamicCoreRange(OpAsmPrinter &printer, Operation *, Value row0,
                           Value col0, Value row1, Value col1) {
  printer << "[" << row0 << ", " << col0 << "]-[" << row1 << ", " << col1
          << "]";
}

} // namespace strata::tile
