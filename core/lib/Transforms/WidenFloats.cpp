//===- WidenFloats.cpp - Compute bf16/f16 in f32 for the reference --------===//
//
// The host reference of `strata-run --check` computes what the program
// means, as accurately as it can: bf16/f16 values become f32 inside every
// function body, in place (the ops on tensors are polymorphic in their
// element type), with conversions only at the function's boundary.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/FloatConversions.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"

namespace strata {
#define GEN_PASS_DEF_STRATAWIDENFLOATS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using strata::convertFloats;
using strata::isNarrowFloat;

/// Whether `type` is, or has elements of, bf16 or f16.
static bool isNarrow(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isNarrowFloat(type);
}

/// Whether `type` or `attr` holds bf16 or f16 anywhere inside.
template <typename TypeOrAttr> static bool holdsNarrow(TypeOrAttr typeOrAttr) {
  bool found = false;
  typeOrAttr.walk([&](Type t) { found |= isNarrowFloat(t); });
  return found;
}

/// `type` with f32 in place of bf16/f16; null for a type that has narrow
/// floats but cannot be widened in place (a memref, a complex number).
static Type widen(Type type) {
  if (!isNarrow(type))
    return holdsNarrow(type) ? Type() : type;
  Type f32 = Float32Type::get(type.getContext());
  if (isa<FloatType>(type))
    return f32;
  if (isa<TensorType, VectorType>(type))
    return cast<ShapedType>(type).clone(f32);
  return Type();
}

/// The dialects whose ops are polymorphic in their float element type.
static bool isWidenableDialect(Operation *op) {
  if (isa<arith::BitcastOp, tensor::BitcastOp, arith::ScalingExtFOp,
          arith::ScalingTruncFOp>(op))
    return false;
  static const StringRef dialects[] = {"arith", "math",   "linalg", "tensor",
                                       "scf",   "affine", "cf"};
  return llvm::is_contained(dialects, op->getName().getDialectNamespace());
}

/// Whether `op` holds a narrow float in its types or attributes.
static bool touchesNarrow(Operation *op) {
  auto anyNarrow = [](TypeRange types) {
    return llvm::any_of(types, holdsNarrow<Type>);
  };
  if (anyNarrow(op->getOperandTypes()) || anyNarrow(op->getResultTypes()) ||
      holdsNarrow(op->getAttrDictionary()))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (anyNarrow(block.getArgumentTypes()))
        return true;
  return false;
}

/// `attr` (a float or dense float constant) as f32.
static TypedAttr widenConstant(TypedAttr attr) {
  auto toF32 = [](APFloat value) {
    bool losesInfo;
    value.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    return value;
  };
  Type type = widen(attr.getType());
  if (!type)
    return {};
  if (auto scalar = dyn_cast<FloatAttr>(attr))
    return FloatAttr::get(type, toF32(scalar.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return dense.mapValues(
        Float32Type::get(attr.getContext()),
        [&](const APFloat &value) { return toF32(value).bitcastToAPInt(); });
  return {};
}

/// Widens `op`, which touches narrow floats, in place (its results and the
/// arguments of its blocks).
static LogicalResult widenOp(Operation *op) {
  auto fail = [&](StringRef why) {
    return op->emitError() << "cannot compute '" << op->getName()
                           << "' in f32 for the reference: " << why;
  };
  if (isa<func::ReturnOp>(op))
    return success(); // the results are truncated at the boundary
  if (isa<func::CallOp, func::CallIndirectOp>(op))
    return fail("calls keep their callee's types; inline first");
  if (!isWidenableDialect(op))
    return fail("not an op on tensors or scalars that is polymorphic in its "
                "float type");
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    TypedAttr value = widenConstant(constant.getValue());
    if (!value)
      return fail("a constant that is not a float or dense float value");
    constant.setValueAttr(value);
  } else if (holdsNarrow(op->getAttrDictionary())) {
    // Types inside other attributes would disagree with the widened ones.
    return fail("an attribute holds a bf16/f16 type or value");
  }
  for (OpResult result : op->getResults()) {
    Type type = widen(result.getType());
    if (!type)
      return fail("a result type has no f32 counterpart");
    result.setType(type);
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments()) {
        Type type = widen(arg.getType());
        if (!type)
          return fail("a block argument type has no f32 counterpart");
        arg.setType(type);
      }
  return success();
}

/// Extends every narrow argument of `func` right after entry; the body uses
/// the extended value.
static LogicalResult widenArguments(func::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  for (BlockArgument arg : entry.getArguments()) {
    Type type = widen(arg.getType());
    if (!type)
      return func.emitError()
             << "cannot compute argument #" << arg.getArgNumber()
             << " in f32 for the reference";
    if (type == arg.getType())
      continue;
    Value wide = convertFloats(b, arg.getLoc(), arg, type);
    Operation *conversion = wide.getDefiningOp();
    // Only uses after the conversion (not the sizes it reads, nor itself).
    arg.replaceUsesWithIf(wide, [&](OpOperand &use) {
      Operation *user = entry.findAncestorOpInBlock(*use.getOwner());
      return user && conversion->isBeforeInBlock(user);
    });
  }
  return success();
}

namespace {
struct WidenFloats : strata::impl::StrataWidenFloatsBase<WidenFloats> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Found before any type changes: an op that only reads a narrow value
    // must be checked too.
    SmallVector<Operation *> ops;
    func.getBody().walk([&](Operation *op) {
      if (touchesNarrow(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(widenOp(op)))
        return signalPassFailure();
    // Blocks of the body other than the entry (the arguments stay narrow).
    for (Block &block : llvm::drop_begin(func.getBody()))
      for (BlockArgument arg : block.getArguments())
        if (Type type = widen(arg.getType()))
          arg.setType(type);
    if (failed(widenArguments(func)))
      return signalPassFailure();
    // Conversions between what are now both f32 disappear.
    for (Operation *op : ops)
      if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
          op->getResult(0).getType() == op->getOperand(0).getType()) {
        op->getResult(0).replaceAllUsesWith(op->getOperand(0));
        op->erase();
      }
    OpBuilder b(&getContext());
    func.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      for (auto [operand, type] :
           llvm::zip_equal(ret->getOpOperands(), func.getResultTypes()))
        if (operand.get().getType() != type)
          operand.set(convertFloats(b, ret.getLoc(), operand.get(), type));
    });
    if (failed(verify(func))) {
      func.emitError() << "the body computed in f32 does not verify";
      signalPassFailure();
    }
  }
};
} // namespace
