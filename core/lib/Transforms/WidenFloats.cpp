//===- WidenFloats.cpp - Compute narrow floats wider for the reference ----===//
//
// The host reference of `strata-run --check` computes what the program
// means, as accurately as it can: bf16/f16 values become f32 inside every
// function body (with `f64`, f32 values too become f64), in place (the ops
// on tensors are polymorphic in their element type), with conversions only
// at the function's boundary.
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

namespace {
/// What becomes what: bf16/f16 (and f32 with `toF64`) become f32 (f64).
class Widening {
public:
  Widening(MLIRContext *ctx, bool toF64)
      : toF64(toF64), wide(toF64 ? Type(Float64Type::get(ctx))
                                 : Type(Float32Type::get(ctx))) {}

  /// Whether the scalar `type` is widened.
  bool narrowScalar(Type type) const {
    return isNarrowFloat(type) || (toF64 && type.isF32());
  }

  /// Whether `type` is, or has elements of, a widened type.
  bool isNarrow(Type type) const {
    if (auto shaped = dyn_cast<ShapedType>(type))
      type = shaped.getElementType();
    return narrowScalar(type);
  }

  /// Whether `type` or `attr` holds a widened type anywhere inside.
  template <typename TypeOrAttr> bool holdsNarrow(TypeOrAttr typeOrAttr) const {
    bool found = false;
    typeOrAttr.walk([&](Type t) { found |= narrowScalar(t); });
    return found;
  }

  /// `type` widened; null for a type that has narrow floats but cannot be
  /// widened in place (a memref, a complex number).
  Type widen(Type type) const {
    if (!isNarrow(type))
      return holdsNarrow(type) ? Type() : type;
    if (isa<FloatType>(type))
      return wide;
    if (isa<TensorType, VectorType>(type))
      return cast<ShapedType>(type).clone(wide);
    return Type();
  }

  /// Whether `op` holds a widened type in its types or attributes.
  bool touchesNarrow(Operation *op) const {
    auto anyNarrow = [&](TypeRange types) {
      return llvm::any_of(types, [&](Type t) { return holdsNarrow(t); });
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

  /// `attr` (a float or dense float constant) widened; null otherwise.
  TypedAttr widenConstant(TypedAttr attr) const {
    const llvm::fltSemantics &semantics =
        cast<FloatType>(wide).getFloatSemantics();
    auto convert = [&](APFloat value) {
      bool losesInfo;
      value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
      return value;
    };
    Type type = widen(attr.getType());
    if (!type)
      return {};
    if (auto scalar = dyn_cast<FloatAttr>(attr))
      return FloatAttr::get(type, convert(scalar.getValue()));
    if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
      return dense.mapValues(wide, [&](const APFloat &value) {
        return convert(value).bitcastToAPInt();
      });
    return {};
  }

  /// Why `op`, which touches narrow floats, cannot be widened in place;
  /// empty when it can.
  std::string whyNot(Operation *op) const {
    if (isa<func::ReturnOp>(op))
      return ""; // the results are converted back at the boundary
    if (isa<func::CallOp, func::CallIndirectOp>(op))
      return "calls keep their callee's types; inline first";
    if (!isWidenableDialect(op))
      return "not an op on tensors or scalars that is polymorphic in its "
             "float type";
    if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
      if (!widenConstant(constant.getValue()))
        return "a constant that is not a float or dense float value";
    } else if (holdsNarrow(op->getAttrDictionary())) {
      // Types inside other attributes would disagree with the widened ones.
      return "an attribute holds a narrow float type or value";
    }
    for (OpResult result : op->getResults())
      if (!widen(result.getType()))
        return "a result type has no wider counterpart";
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (!widen(arg.getType()))
            return "a block argument type has no wider counterpart";
    return "";
  }

  /// Widens `op` (whyNot(op) is empty) in place: its results and the
  /// arguments of its blocks.
  void widenOp(Operation *op) const {
    if (isa<func::ReturnOp>(op))
      return;
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      constant.setValueAttr(widenConstant(constant.getValue()));
    for (OpResult result : op->getResults())
      result.setType(widen(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(widen(arg.getType()));
  }

  /// Widens every narrow argument of `func` right after entry; the body
  /// uses the widened value.
  void widenArguments(func::FuncOp func) const {
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      Type type = widen(arg.getType());
      if (type == arg.getType())
        continue;
      Value converted = convertFloats(b, arg.getLoc(), arg, type);
      Operation *conversion = converted.getDefiningOp();
      // Only uses after the conversion (not the sizes it reads, nor itself).
      arg.replaceUsesWithIf(converted, [&](OpOperand &use) {
        Operation *user = entry.findAncestorOpInBlock(*use.getOwner());
        return user && conversion->isBeforeInBlock(user);
      });
    }
  }

  const bool toF64;

private:
  /// The dialects whose ops are polymorphic in their float element type.
  static bool isWidenableDialect(Operation *op) {
    if (isa<arith::BitcastOp, tensor::BitcastOp, arith::ScalingExtFOp,
            arith::ScalingTruncFOp>(op))
      return false;
    static const StringRef dialects[] = {"arith", "math",   "linalg", "tensor",
                                         "scf",   "affine", "cf"};
    return llvm::is_contained(dialects, op->getName().getDialectNamespace());
  }

  Type wide;
};

struct WidenFloats : strata::impl::StrataWidenFloatsBase<WidenFloats> {
  using StrataWidenFloatsBase::StrataWidenFloatsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Widening w(&getContext(), f64);
    // Found before any type changes: an op that only reads a narrow value
    // must be checked too. Every check comes before any change, so that a
    // function computed in f64 on a best-effort basis is left whole.
    SmallVector<Operation *> ops;
    func.getBody().walk([&](Operation *op) {
      if (w.touchesNarrow(op))
        ops.push_back(op);
    });
    auto refuse = [&](InFlightDiagnostic diag) {
      if (w.toF64) {
        diag.abandon();
        return;
      }
      signalPassFailure();
    };
    for (Operation *op : ops)
      if (std::string why = w.whyNot(op); !why.empty())
        return refuse(op->emitError() << "cannot compute '" << op->getName()
                                      << "' in " << (w.toF64 ? "f64" : "f32")
                                      << " for the reference: " << why);
    for (Block &block : func.getBody())
      for (BlockArgument arg : block.getArguments())
        if (!w.widen(arg.getType()))
          return refuse(func.emitError()
                        << "cannot compute argument #" << arg.getArgNumber()
                        << " wider for the reference");
    for (Operation *op : ops)
      w.widenOp(op);
    // Blocks of the body other than the entry (the arguments stay narrow).
    for (Block &block : llvm::drop_begin(func.getBody()))
      for (BlockArgument arg : block.getArguments())
        arg.setType(w.widen(arg.getType()));
    w.widenArguments(func);
    // Conversions between what are now the same type disappear.
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
      func.emitError() << "the body computed wider does not verify";
      signalPassFailure();
    }
  }
};
} // namespace
