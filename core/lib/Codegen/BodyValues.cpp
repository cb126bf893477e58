//===- BodyValues.cpp - A linalg body as a sequence of unit ops -----------===//
#include "strata/Codegen/BodyValues.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace strata::codegen;

Operation *strata::codegen::directWriter(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  Operation *direct = body->getTerminator()->getOperand(0).getDefiningOp();
  if (!direct || direct->getBlock() != body)
    return nullptr;
  for (OpOperand &init : op.getDpsInitsMutable())
    for (Operation *user : op.getMatchingBlockArgument(&init).getUsers())
      if (direct->isBeforeInBlock(user))
        return nullptr;
  return direct;
}

BodySlots strata::codegen::assignBodySlots(linalg::LinalgOp op,
                                           Operation *direct) {
  BodySlots slots;
  SmallVector<int> free;
  for (Operation &inner : op.getBlock()->without_terminator()) {
    if (inner.hasTrait<OpTrait::ConstantLike>())
      continue;
    for (Value v : inner.getOperands())
      if (slots.slotOf.count(v) &&
          llvm::none_of(v.getUsers(),
                        [&](auto *u) { return inner.isBeforeInBlock(u); }) &&
          !llvm::is_contained(free, slots.slotOf[v]))
        free.push_back(slots.slotOf[v]);
    if (&inner == direct || inner.getNumResults() != 1)
      continue;
    Type type = inner.getResult(0).getType();
    auto it =
        llvm::find_if(free, [&](int s) { return slots.types[s] == type; });
    if (it != free.end()) {
      slots.slotOf[inner.getResult(0)] = *it;
      free.erase(it);
    } else {
      slots.slotOf[inner.getResult(0)] = slots.types.size();
      slots.types.push_back(type);
    }
  }
  return slots;
}

std::optional<double> strata::codegen::constantValue(Value v) {
  Attribute attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  if (auto f = dyn_cast<FloatAttr>(attr))
    return f.getValueAsDouble();
  if (auto i = dyn_cast<IntegerAttr>(attr))
    return double(i.getInt());
  return std::nullopt;
}

linalg::FillOp strata::codegen::zeroFillBefore(linalg::LinalgOp op) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || op.getNumDpsInits() != 1 ||
      fill.getDpsInitOperand(0)->get() != op.getDpsInits()[0])
    return {};
  std::optional<double> value = constantValue(fill.getInputs()[0]);
  return value && *value == 0 ? fill : linalg::FillOp();
}
