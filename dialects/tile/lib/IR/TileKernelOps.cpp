//===- TileKernelOps.cpp - Op definitions and per-op checks ---------------===//
//
// The generated op classes and what each op can check alone: where it may
// appear (the kernel-kind traits) and a kernel's own attributes. Checks that
// need the program's declarations or the chip are in TileProgramOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace strata::tile;

namespace strata::tile {
// Custom assembly directives (TileAttrs.cpp): `[r0, c0]-[r1, c1]`.
ParseResult parseCoreRange(OpAsmParser &parser, CoreRangeAttr &range);
void printCoreRange(OpAsmPrinter &printer, Operation *op, CoreRangeAttr range);
ParseResult parseDynamicCoreRange(OpAsmParser &parser,
                                  OpAsmParser::UnresolvedOperand &row0,
                                  OpAsmParser::UnresolvedOperand &col0,
                                  OpAsmParser::UnresolvedOperand &row1,
                                  OpAsmParser::UnresolvedOperand &col1);
void printDynamicCoreRange(OpAsmPrinter &printer, Operation *op, Value row0,
                           Value col0, Value row1, Value col1);
} // namespace strata::tile

#define GET_OP_CLASSES
#include "strata/Dialect/Tile/IR/TileOps.cpp.inc"

LogicalResult strata::tile::verifyKernelPlacement(Operation *op,
                                                  KernelPlacement placement) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return op->emitOpError() << "must be inside a tile.kernel";
  KernelKind kind = kernel.getKind();
  if (placement == KernelPlacement::Compute && kind != KernelKind::compute)
    return op->emitOpError()
           << "runs on the compute processors: it belongs in a compute "
              "kernel, not a "
           << stringifyKernelKind(kind) << " kernel";
  if (placement == KernelPlacement::DataMovement && kind == KernelKind::compute)
    return op->emitOpError() << "drives the NoC: it belongs in a reader or "
                                "writer kernel, not a compute kernel";
  return success();
}

Type KernelOp::getDstElementType() {
  if (std::optional<Type> type = getDstType())
    return *type;
  return Float32Type::get(getContext());
}

StringRef KernelOp::getFidelityName() {
  if (std::optional<StringRef> fidelity = getFidelity())
    return *fidelity;
  return "HiFi4";
}

LogicalResult KernelOp::verify() {
  if (!getBody().empty() && getBody().front().getNumArguments() != 0)
    return emitOpError() << "body takes no arguments: a kernel reads its "
                            "core with tile.core_row and tile.core_col";
  bool compute = getKind() == KernelKind::compute;
  if (getDstType() && !compute)
    return emitOpError() << "'dst_type' is an attribute of compute kernels";
  if (getFidelity() && !compute)
    return emitOpError() << "'fidelity' is an attribute of compute kernels";
  if (std::optional<Type> type = getDstType())
    if (!type->isF32() && !type->isBF16())
      return emitOpError() << "'dst_type' must be f32 or bf16, got " << *type;
  return success();
}
