//===- HierarchyKernel.cpp - Building the loops of one kernel -------------===//
#include "HierarchyKernel.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

/// The description's spelling of a scalar type ("f16", "bf16", "f32").
std::string hierarchy::typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Records the model's decisions on the block loop (for --emit=mlir).
void hierarchy::setHierarchySchedule(Operation *kernel,
                                     const nlohmann::json &doc) {
  MLIRContext *ctx = kernel->getContext();
  kernel->setAttr(
      kScheduleAttrName,
      ScheduleAttr::get(ctx, cast<DictionaryAttr>(jsonToAttribute(ctx, doc))));
}

Value KernelBuilder::idx(int64_t v) {
  return arith::ConstantIndexOp::create(b, v);
}

ArrayAttr KernelBuilder::mapping(StringRef level, int rank) {
  SmallVector<Attribute> dims;
  for (int d = rank - 1; d >= 0; --d)
    dims.push_back(GridAttr::get(b.getContext(), level, d));
  return b.getArrayAttr(dims);
}

scf::ForallOp KernelBuilder::forall(StringRef level, ArrayRef<int64_t> counts,
                                    function_ref<void(ValueRange)> body) {
  SmallVector<OpFoldResult> lbs, ubs, steps;
  for (int64_t c : counts) {
    lbs.push_back(b.getIndexAttr(0));
    ubs.push_back(b.getIndexAttr(c));
    steps.push_back(b.getIndexAttr(1));
  }
  auto op = scf::ForallOp::create(b, lbs, ubs, steps, ValueRange(),
                                  mapping(level, counts.size()));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(op.getBody());
  body(op.getInductionVars());
  return op;
}

scf::ForOp KernelBuilder::kLoop(VectorType type, int64_t count, int64_t steps) {
  Value zero = arith::ConstantOp::create(
      b, DenseElementsAttr::get(type, b.getF32FloatAttr(0)));
  SmallVector<Value> inits(count, zero);
  return scf::ForOp::create(b, idx(0), idx(steps), idx(1), inits);
}

void KernelBuilder::strided(Value first, int64_t total, int64_t stride,
                            function_ref<void(Value)> body) {
  auto loop = scf::ForOp::create(b, first, idx(total), idx(stride));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  body(loop.getInductionVar());
}

Value KernelBuilder::lt(Value a, Value c) {
  return arith::CmpIOp::create(b, arith::CmpIPredicate::ult, a, c);
}
Value KernelBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(b, x, y);
}
Value KernelBuilder::mul(Value x, int64_t y) {
  return arith::MulIOp::create(b, x, idx(y));
}
Value KernelBuilder::div(Value x, int64_t y) {
  return arith::DivUIOp::create(b, x, idx(y));
}
Value KernelBuilder::rem(Value x, int64_t y) {
  return arith::RemUIOp::create(b, x, idx(y));
}

Value KernelBuilder::loadOr(linalg::LinalgOp op, OpOperand *operand,
                            ArrayRef<Value> loops, Value inBounds, Value zero) {
  auto ifOp = scf::IfOp::create(b, TypeRange{zero.getType()}, inBounds,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value v = load(op, operand, loops);
    if (v.getType() != zero.getType())
      v = arith::ExtFOp::create(b, zero.getType(), v);
    scf::YieldOp::create(b, v);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, zero);
  }
  return ifOp.getResult(0);
}

Value KernelBuilder::load(linalg::LinalgOp op, OpOperand *operand,
                          ArrayRef<Value> loops) {
  if (!isa<MemRefType>(operand->get().getType()))
    return operand->get();
  return memref::LoadOp::create(
      b, operand->get(), indices(op.getMatchingIndexingMap(operand), loops));
}

SmallVector<Value> KernelBuilder::indices(AffineMap map,
                                          ArrayRef<Value> loops) {
  SmallVector<Value> out;
  for (AffineExpr e : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(e)) {
      out.push_back(loops[dim.getPosition()]);
      continue;
    }
    // Constants (a broadcast row) and windows (a convolution's h + kh)
    // become index arithmetic on the loop values.
    out.push_back(affine::expandAffineExpr(b, b.getLoc(), e, loops, {}));
  }
  return out;
}

void KernelBuilder::applyBody(linalg::LinalgOp op, ArrayRef<Value> loops,
                              Value givenBuffer, Value given) {
  IRMapping map;
  Block *body = op.getBlock();
  for (OpOperand &operand : op->getOpOperands()) {
    Value arg = body->getArgument(operand.getOperandNumber());
    if (givenBuffer && operand.get() == givenBuffer) {
      map.map(arg, given);
    } else if (!arg.use_empty()) {
      map.map(arg, load(op, &operand, loops));
    }
  }
  for (Operation &inner : body->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), loops[index.getDim()]);
      continue;
    }
    b.clone(inner, map);
  }
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  for (auto [value, init] :
       llvm::zip(yield.getValues(), op.getDpsInitsMutable())) {
    memref::StoreOp::create(b, map.lookupOrDefault(value), init.get(),
                            indices(op.getMatchingIndexingMap(&init), loops));
  }
}
