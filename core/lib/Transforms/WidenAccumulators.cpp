//===- WidenAccumulators.cpp - Sum narrow-float contractions in f32 -------===//
//
// A contraction or a sum reduction whose output is bf16 or f16 (a matmul
// as a bf16 model exports it) would keep its accumulators in that type,
// rounding after every multiply-add: over 1024 products a bf16 GEMM was 4%
// off the exact sum, past the type's own tolerance. Every library sums in f32
// and rounds once. Here such a contraction gets an f32 output (its initial
// value extended) and an elementwise truncation to the original type after it,
// which S4 fuses as an epilogue. The body must be products and sums of
// floats (with extensions of the inputs), computed in f32, or end by adding
// a term computed from the inputs alone to the accumulator (a reduction
// that fusion gave an elementwise producer: a min, then a bf16 sum of
// 60,112 terms was 96% off in bf16 vector lanes, differential seed 308
// case 30), the term computed as before and extended; others are left
// alone.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/FloatConversions.h"
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace strata {
#define GEN_PASS_DEF_STRATAWIDENACCUMULATORS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;
using strata::convertFloats;
using strata::isNarrowFloat;
using strata::widenedAccumulator;

namespace {
/// The add that sums into the accumulator when it is the body's last step
/// and the accumulator's only use (out = x + out, x computed from the
/// inputs alone: a sum of elementwise terms that fusion merged into the
/// reduction, a min before a sum); null otherwise.
arith::AddFOp finalSum(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return {};
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  BlockArgument acc = body->getArguments().back();
  if (!add || add->getBlock() != body || !acc.hasOneUse() ||
      !llvm::is_contained(add->getOperands(), Value(acc)) ||
      add.getLhs() == add.getRhs())
    return {};
  return add;
}

/// Whether `op` is a contraction or a sum on tensors with one bf16/f16
/// output whose body only multiplies, adds and extends floats (computed in
/// f32: `products`), or sums into the accumulator last (the term computed
/// as the body computes it, then extended).
bool widenable(linalg::LinalgOp op, bool &products) {
  // Products (two inputs) and plain sums (one input: a long f16 sum
  // rounded at every add was 1.1% off over 46,800 terms).
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op.getNumDpsInputs() < 1 ||
      op.getNumDpsInputs() > 2)
    return false;
  auto out = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!out || !isNarrowFloat(out.getElementType()))
    return false;
  Block *body = op.getBlock();
  if (!body)
    return false;
  products = llvm::all_of(body->without_terminator(), [](Operation &inner) {
    return isa<arith::MulFOp, arith::AddFOp>(inner) ||
           (isa<arith::ExtFOp>(inner) && inner.getResult(0).getType().isF32());
  });
  return products || finalSum(op);
}

/// `value` as f32: extended when narrower.
Value toF32(OpBuilder &b, Location loc, Value value) {
  return value.getType().isF32() ? value
                                 : convertFloats(b, loc, value, b.getF32Type());
}

struct WidenAccumulators
    : strata::impl::StrataWidenAccumulatorsBase<WidenAccumulators> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, bool>> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (bool products = false; widenable(op, products))
        ops.push_back({op, products});
    });
    IRRewriter rw(&getContext());
    for (auto [widened, inF32] : ops) {
      linalg::LinalgOp op = widened;
      bool products = inF32;
      Location loc = op.getLoc();
      rw.setInsertionPoint(op);
      Value init = op.getDpsInits()[0];
      auto narrow = cast<RankedTensorType>(init.getType());
      auto wide = narrow.clone(rw.getF32Type());
      Value wideInit = widenedAccumulator(rw, loc, init);
      // The same loops, maps and body, computed in f32.
      Block *body = op.getBlock();
      auto generic = linalg::GenericOp::create(
          rw, loc, wide, op.getDpsInputs(), ValueRange{wideInit},
          op.getIndexingMapsArray(), op.getIteratorTypesArray(),
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            IRMapping map;
            for (auto [old, now] : llvm::zip(body->getArguments(), args))
              map.map(old, now);
            if (!products) {
              // The term as the body computes it, extended, then summed.
              arith::AddFOp sum = finalSum(op);
              for (Operation &inner : body->without_terminator())
                if (&inner != sum.getOperation())
                  b.clone(inner, map);
              Value acc = body->getArguments().back();
              Value term = sum.getLhs() == acc ? sum.getRhs() : sum.getLhs();
              Value wideSum = arith::AddFOp::create(
                  b, bodyLoc, toF32(b, bodyLoc, map.lookupOrDefault(term)),
                  map.lookup(acc));
              linalg::YieldOp::create(b, bodyLoc, wideSum);
              return;
            }
            // Operands defined above the body (a scale hoisted out of it
            // as a constant) are read as they are.
            for (Operation &inner : body->without_terminator()) {
              if (isa<arith::ExtFOp>(inner)) {
                map.map(inner.getResult(0),
                        toF32(b, bodyLoc,
                              map.lookupOrDefault(inner.getOperand(0))));
                continue;
              }
              Value lhs =
                  toF32(b, bodyLoc, map.lookupOrDefault(inner.getOperand(0)));
              Value rhs =
                  toF32(b, bodyLoc, map.lookupOrDefault(inner.getOperand(1)));
              Value result =
                  isa<arith::MulFOp>(inner)
                      ? arith::MulFOp::create(b, bodyLoc, lhs, rhs).getResult()
                      : arith::AddFOp::create(b, bodyLoc, lhs, rhs).getResult();
              map.map(inner.getResult(0), result);
            }
            Value yielded = body->getTerminator()->getOperand(0);
            linalg::YieldOp::create(
                b, bodyLoc, toF32(b, bodyLoc, map.lookupOrDefault(yielded)));
          });
      // Rounded once, into a fresh tensor of the original type.
      Value rounded = convertFloats(rw, loc, generic.getResult(0), narrow);
      rw.replaceOp(op, rounded);
    }
  }
};
} // namespace
