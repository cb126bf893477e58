//===- IndexTerms.cpp - Index arithmetic of bodies as DRAM constants -----===//
//
// The tile engines compute on tiles of values; they have no per-element
// index. A body term that depends only on the iteration's indices and on
// constants (PyTorch's causal mask: select(j - i <= 0, 0, -inf), an
// arange, a position's parity) is therefore evaluated at compile time,
// once per point of the loops it depends on, into a constant buffer
// (memref.global) that the op reads as one more input through those loops
// (a [197 x 197] mask beside a 4 x 197 x 197 product is read per (i, j),
// broadcast along the batch). The program that reads it declares it as a
// DRAM tensor bound to the constant's name, which the runtime fills from
// the module's `tile.constants` (LowerToTile.cpp, TileDevice.cpp).
//
// Each op is evaluated by MLIR's own folder on constant operands, so the
// values are arith's exactly. Only float terms are taken (the engines
// compute floats); a term with an op that does not fold (a division by
// zero) or a constant of more than 2^22 elements leaves the body as it is,
// and its lowering names the op it cannot run.
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
constexpr int64_t kMaxElements = int64_t(1) << 22;

bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// Whether `op` is computed by folding it on constant operands: a pure op
/// of scalars with one result and no region (arith's), or linalg.index.
bool evaluable(Operation *op) {
  if (isa<linalg::IndexOp>(op))
    return true;
  return op->getNumResults() == 1 && op->getNumRegions() == 0 && isPure(op) &&
         isScalar(op->getResult(0).getType()) &&
         llvm::all_of(op->getOperandTypes(), isScalar);
}

/// The value of `v` at the point being evaluated: computed there, or a
/// constant; null otherwise.
Attribute valueIn(const DenseMap<Value, Attribute> &values, Value v) {
  Attribute value = values.lookup(v);
  if (!value)
    matchPattern(v, m_Constant(&value));
  return value;
}

/// The value of `op` at `point` from its operands' (MLIR's own folders:
/// arith's semantics exactly), or null where it does not fold (a division
/// by zero).
Attribute evaluate(Operation *op, ArrayRef<Attribute> operands,
                   ArrayRef<int64_t> point,
                   const DenseMap<Value, Attribute> &values) {
  if (auto index = dyn_cast<linalg::IndexOp>(op))
    return IntegerAttr::get(IndexType::get(op->getContext()),
                            point[index.getDim()]);
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return {};
  if (auto same = dyn_cast<Value>(folded[0])) // x + 0, a select's branch
    return valueIn(values, same);
  return cast<Attribute>(folded[0]);
}

/// A float value of a body computed from indices and constants only, the
/// ops that compute it in order, and the loops it depends on.
struct IndexTerm {
  Value value;
  SmallVector<Operation *> ops;
  SmallVector<unsigned> loops;
};

/// The ops of a body the evaluator computes from linalg.index and
/// constants (in body order), and the terms among their values: those read
/// by other ops.
struct IndexTerms {
  llvm::SetVector<Operation *> indexOnly;
  SmallVector<IndexTerm> terms;
};

IndexTerms indexTermsOf(linalg::GenericOp op) {
  Block *body = op.getBody();
  IndexTerms result;
  llvm::SetVector<Operation *> &indexOnly = result.indexOnly;
  DenseMap<Value, llvm::SmallBitVector> loopsOf;
  unsigned numLoops = op.getNumLoops();
  for (Operation &inner : body->without_terminator()) {
    if (!evaluable(&inner))
      continue;
    llvm::SmallBitVector loops(numLoops);
    bool ok = true;
    for (Value v : inner.getOperands()) {
      if (auto it = loopsOf.find(v); it != loopsOf.end()) {
        loops |= it->second;
        continue;
      }
      // A scalar constant defined outside the body.
      if (v.getParentBlock() != body && matchPattern(v, m_Constant()))
        continue;
      ok = false;
      break;
    }
    if (!ok)
      continue;
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      loops.set(index.getDim());
    indexOnly.insert(&inner);
    loopsOf[inner.getResult(0)] = loops;
  }
  SmallVector<IndexTerm> &terms = result.terms;
  for (Operation *inner : indexOnly) {
    Value v = inner->getResult(0);
    const llvm::SmallBitVector &loops = loopsOf[v];
    bool usedOutside = llvm::any_of(v.getUsers(), [&](Operation *user) {
      return !indexOnly.contains(user);
    });
    if (!usedOutside || loops.none() || !isa<FloatType>(v.getType()))
      continue;
    IndexTerm term;
    term.value = v;
    for (unsigned d : loops.set_bits())
      term.loops.push_back(d);
    // The ops it needs, in body order.
    llvm::SetVector<Operation *> needed;
    SmallVector<Operation *> work{inner};
    while (!work.empty()) {
      Operation *o = work.pop_back_val();
      if (!indexOnly.contains(o) || !needed.insert(o))
        continue;
      for (Value operand : o->getOperands())
        if (Operation *def = operand.getDefiningOp())
          work.push_back(def);
    }
    for (Operation *o : indexOnly)
      if (needed.contains(o))
        term.ops.push_back(o);
    terms.push_back(std::move(term));
  }
  return result;
}

/// The value of `term` at every point of its loops (row-major over them),
/// or failure.
FailureOr<SmallVector<double>>
tabulate(const IndexTerm &term, ArrayRef<int64_t> ranges, unsigned numLoops) {
  int64_t count = 1;
  for (int64_t r : ranges)
    count *= r;
  SmallVector<double> values;
  values.reserve(count);
  SmallVector<int64_t> point(numLoops, 0);
  DenseMap<Value, Attribute> env;
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat;
    for (size_t k = term.loops.size(); k-- > 0;) {
      point[term.loops[k]] = rest % ranges[k];
      rest /= ranges[k];
    }
    env.clear();
    for (Operation *o : term.ops) {
      SmallVector<Attribute> operands;
      for (Value operand : o->getOperands()) {
        Attribute a = valueIn(env, operand);
        if (!a)
          return failure();
        operands.push_back(a);
      }
      Attribute result = evaluate(o, operands, point, env);
      if (!result)
        return failure();
      env[o->getResult(0)] = result;
    }
    auto value = dyn_cast_or_null<FloatAttr>(env.lookup(term.value));
    if (!value)
      return failure();
    values.push_back(value.getValueAsDouble());
  }
  return values;
}

} // namespace

void strata::tile::tabulateIndexTerms(func::FuncOp fn) {
  IRRewriter rewriter(fn.getContext());
  SmallVector<linalg::GenericOp> generics;
  fn.walk([&](linalg::GenericOp op) {
    if (op.hasPureBufferSemantics())
      generics.push_back(op);
  });
  for (linalg::GenericOp op : generics) {
    SmallVector<int64_t> bounds = op.getStaticLoopRanges();
    if (llvm::any_of(bounds, ShapedType::isDynamic))
      continue;
    IndexTerms found = indexTermsOf(op);
    for (IndexTerm &term : found.terms) {
      SmallVector<int64_t> ranges;
      int64_t count = 1;
      for (unsigned d : term.loops) {
        ranges.push_back(bounds[d]);
        count *= bounds[d];
      }
      if (count > kMaxElements)
        continue;
      FailureOr<SmallVector<double>> values =
          tabulate(term, ranges, op.getNumLoops());
      if (failed(values))
        continue;
      Type element = term.value.getType();
      auto tensorType = RankedTensorType::get(ranges, element);
      SmallVector<Attribute> elements;
      for (double v : *values)
        elements.push_back(FloatAttr::get(element, v));
      Value buffer = constantBuffer(
          rewriter, op, DenseElementsAttr::get(tensorType, elements),
          "index_term");
      SmallVector<AffineExpr> exprs;
      for (unsigned d : term.loops)
        exprs.push_back(rewriter.getAffineDimExpr(d));
      AffineMap map =
          AffineMap::get(op.getNumLoops(), 0, exprs, rewriter.getContext());
      Value value = term.value;
      BlockArgument added;
      op = withInput(rewriter, op, buffer, map, added);
      // Other terms still compute from the value.
      value.replaceUsesWithIf(added, [&](OpOperand &use) {
        return !found.indexOnly.contains(use.getOwner());
      });
    }
    // The ops nothing reads any more leave the body.
    for (Operation *o : llvm::reverse(found.indexOnly))
      if (o->use_empty())
        rewriter.eraseOp(o);
  }
}

std::optional<llvm::StringRef> strata::tile::constantNameOf(Value v) {
  if (auto get = v.getDefiningOp<memref::GetGlobalOp>())
    return get.getName();
  return std::nullopt;
}

/// `op` with one more input, `buffer` read through `map`: a new generic
/// with the body moved over and a block argument for the input; the new
/// argument is returned through `added`.
linalg::GenericOp strata::tile::withInput(IRRewriter &rewriter,
                                          linalg::GenericOp op, Value buffer,
                                          AffineMap map, BlockArgument &added) {
  SmallVector<Value> inputs = op.getDpsInputs();
  inputs.push_back(buffer);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  maps.insert(maps.begin() + op.getNumDpsInputs(), map);
  rewriter.setInsertionPoint(op);
  auto replacement = linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  for (NamedAttribute attr : op->getDiscardableAttrs())
    replacement->setAttr(attr.getName(), attr.getValue());
  replacement.getRegion().takeBody(op.getRegion());
  Block *body = replacement.getBody();
  added =
      body->insertArgument(op.getNumDpsInputs(),
                           getElementTypeOrSelf(buffer.getType()), op.getLoc());
  rewriter.replaceOp(op, replacement->getResults());
  return replacement;
}

Value strata::tile::constantBuffer(IRRewriter &rewriter, Operation *user,
                                   DenseElementsAttr value, StringRef name) {
  auto module = user->getParentOfType<ModuleOp>();
  auto type = cast<ShapedType>(value.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  // Made outside the module, then inserted under a name no other symbol
  // has.
  SymbolTable symbols(module);
  OpBuilder detached(module.getContext());
  auto global = memref::GlobalOp::create(
      detached, user->getLoc(), name, rewriter.getStringAttr("private"),
      memrefType, value, /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global, module.getBody()->begin());
  rewriter.setInsertionPoint(user);
  return memref::GetGlobalOp::create(rewriter, user->getLoc(), memrefType,
                                     global.getSymName());
}
