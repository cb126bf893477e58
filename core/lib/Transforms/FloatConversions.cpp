//===- FloatConversions.cpp - Elementwise float width changes -------------===//
#include "strata/Transforms/FloatConversions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

bool strata::isNarrowFloat(Type type) { return type.isBF16() || type.isF16(); }

Value strata::convertFloats(OpBuilder &b, Location loc, Value value,
                            Type type) {
  auto castScalar = [&](OpBuilder &builder, Location l, Value v,
                        Type to) -> Value {
    // Between f64 and bf16/f16 through f32: the host's runtime library has
    // no direct conversions (__truncdfbf2).
    Type f32 = builder.getF32Type();
    if (v.getType().isF64() && isNarrowFloat(to))
      v = arith::TruncFOp::create(builder, l, f32, v);
    else if (isNarrowFloat(v.getType()) && to.isF64())
      v = arith::ExtFOp::create(builder, l, f32, v);
    if (v.getType() == to)
      return v;
    if (to.getIntOrFloatBitWidth() > v.getType().getIntOrFloatBitWidth())
      return arith::ExtFOp::create(builder, l, to, v);
    return arith::TruncFOp::create(builder, l, to, v);
  };
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return castScalar(b, loc, value, type);
  return mapElements(b, loc, value, tensor.getElementType(),
                     [&](OpBuilder &nested, Location l, Value v) {
                       return castScalar(nested, l, v, tensor.getElementType());
                     });
}

Value strata::mapElements(
    OpBuilder &b, Location loc, Value value, Type elementType,
    llvm::function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(value.getType());
  Value empty = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, value), elementType);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type.clone(elementType)}, ValueRange{value},
             ValueRange{empty}, ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nested, Location l, ValueRange args) {
               linalg::YieldOp::create(nested, l, fn(nested, l, args[0]));
             })
      .getResult(0);
}

Value strata::widenedAccumulator(OpBuilder &b, Location loc, Value init) {
  Type f32 = b.getF32Type();
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return convertFloats(b, loc, init,
                         cast<RankedTensorType>(init.getType()).clone(f32));
  Value empty =
      tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, init), f32);
  return linalg::FillOp::create(
             b, loc, convertFloats(b, loc, fill.getInputs()[0], f32), empty)
      .getResult(0);
}
