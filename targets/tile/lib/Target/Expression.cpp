//===- Expression.cpp - Elementwise bodies as Dst operations --------------===//
//
// The body of an elementwise linalg.generic becomes a short sequence of
// accumulator (Dst) operations per tile: inputs are unpacked into slots,
// binary arithmetic combines two slots into the first, unary functions of
// the vector engine work in place. GELU in its erf form
// (0.5 t (1 + erf(t / sqrt 2))) is recognized whole and becomes the vector
// engine's gelu; max(x, 0) becomes relu and 1 / x recip. Arithmetic with a
// constant operand is the vector engine's scalar form (x * 0.5 ->
// unary_scalar mul, c - x -> rsub, x / c -> mul by 1 / c). Anything else
// is an error naming the op.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>
#include <map>
#include <set>

using namespace mlir;
using namespace strata::tile;

namespace {
bool isConstant(Value v, double expected) {
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  auto value = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  if (!value)
    return false;
  // Within the rounding of the constant's type (1/sqrt(2) in bf16 is
  // 0.70703125).
  int precision =
      int(llvm::APFloat::semanticsPrecision(value.getValue().getSemantics()));
  return std::abs(value.getValueAsDouble() - expected) <=
         std::ldexp(1.0, -precision + 1) * std::max(1.0, std::abs(expected));
}

/// If `v` is `x * constant` (either order), x.
Value mulByConstant(Value v, double constant) {
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return {};
  if (isConstant(mul.getRhs(), constant))
    return mul.getLhs();
  if (isConstant(mul.getLhs(), constant))
    return mul.getRhs();
  return {};
}

/// If `g` is 0.5 t (1 + erf(t / sqrt 2)), t; the ops in between go to
/// `inner`.
Value matchErfGelu(Operation *g, SmallPtrSetImpl<Operation *> &inner) {
  auto root = dyn_cast<arith::MulFOp>(g);
  if (!root)
    return {};
  for (auto [half, sum] : {std::pair(root.getLhs(), root.getRhs()),
                           std::pair(root.getRhs(), root.getLhs())}) {
    Value t = mulByConstant(half, 0.5);
    auto add = sum.getDefiningOp<arith::AddFOp>();
    if (!t || !add)
      continue;
    Value erfValue = isConstant(add.getRhs(), 1.0)   ? add.getLhs()
                     : isConstant(add.getLhs(), 1.0) ? add.getRhs()
                                                     : Value();
    auto erf = erfValue ? erfValue.getDefiningOp<math::ErfOp>() : nullptr;
    if (!erf || mulByConstant(erf.getOperand(), M_SQRT1_2) != t)
      continue;
    inner.insert(
        {half.getDefiningOp(), add, erf, erf.getOperand().getDefiningOp()});
    return t;
  }
  return {};
}

/// The value of a float constant, if `v` is one.
std::optional<double> constantValue(Value v) {
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  auto value = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  if (!value)
    return std::nullopt;
  return value.getValueAsDouble();
}

/// `inst` as x op scalar: the operation's name for tile.unary_scalar, x
/// and the scalar; "" when no operand is a constant (or the form has no
/// scalar op, e.g. c / x).
std::tuple<llvm::StringRef, Value, double> scalarForm(Operation &inst) {
  if (inst.getNumOperands() != 2)
    return {"", Value(), 0};
  Value lhs = inst.getOperand(0), rhs = inst.getOperand(1);
  std::optional<double> l = constantValue(lhs), r = constantValue(rhs);
  if (!l == !r)
    return {"", Value(), 0};
  Value x = r ? lhs : rhs;
  double c = r ? *r : *l;
  if (isa<arith::AddFOp>(inst))
    return {"add", x, c};
  if (isa<arith::MulFOp>(inst))
    return {"mul", x, c};
  if (isa<arith::SubFOp>(inst))
    return {r ? "sub" : "rsub", x, c};
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(inst))
    return {"max", x, c};
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(inst))
    return {"min", x, c};
  if (isa<arith::DivFOp>(inst) && r && *r != 0)
    return {"mul", x, 1.0 / c};
  return {"", Value(), 0};
}

llvm::Error unsupported(Operation *op, llvm::StringRef why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' " << why;
  return llvm::createStringError(text);
}
} // namespace

llvm::Expected<Expression> strata::tile::translateBody(linalg::GenericOp op,
                                                       int firstOperand,
                                                       Operation *end) {
  Expression expr;
  expr.slots = firstOperand;
  Block &body = op.getRegion().front();
  int inputs = int(op.getNumDpsInputs());
  SmallPtrSet<Operation *, 8> inner;
  DenseMap<Operation *, Value> gelus;
  for (Operation &inst : body)
    if (Value t = matchErfGelu(&inst, inner))
      gelus[&inst] = t;
  // Uses outside recognized patterns: an in-place result must not be read
  // again.
  auto uses = [&](Value v) {
    SmallPtrSet<Operation *, 4> users; // x * x reads x once
    for (Operation *user : v.getUsers())
      if (!inner.contains(user))
        users.insert(user);
    return int(users.size());
  };
  DenseMap<Value, int> slotOf;
  std::set<int> freeSlots;
  // Appends a step; `a` is a Load's operand or a Binary's lhs.
  auto push = [&](Expression::Step::Kind kind, llvm::StringRef op, int a,
                  int rhs, int slot) {
    Expression::Step step;
    step.kind = kind;
    step.op = op.str();
    step.operand = kind == Expression::Step::Load ? a : 0;
    step.lhs = kind == Expression::Step::Binary ? a : 0;
    step.rhs = rhs;
    step.slot = slot;
    expr.steps.push_back(step);
  };
  auto slot = [&](Value v, Operation *user) -> llvm::Expected<int> {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      int index = int(arg.getArgNumber());
      if (index >= inputs)
        return unsupported(user, "reads the output's old value");
      if (index < firstOperand) {
        if (uses(v) > 1)
          return unsupported(user, "reads the accumulator twice");
        return index;
      }
      // A slot freed by an earlier binary op, else a new one.
      int slot = expr.slots;
      if (!freeSlots.empty()) {
        slot = *freeSlots.begin();
        freeSlots.erase(freeSlots.begin());
      } else {
        ++expr.slots;
      }
      push(Expression::Step::Load, "", index, 0, slot);
      return slot;
    }
    auto it = slotOf.find(v);
    if (it == slotOf.end())
      return unsupported(user, "takes an operand that is not an input or a "
                               "computed value (the tile engines take a "
                               "constant only as the scalar of add, sub, "
                               "mul, max, min or a division by it)");
    if (uses(v) > 1)
      return unsupported(user, "reads a value used twice");
    return it->second;
  };
  auto unary = [&](Operation *inst, Value x,
                   llvm::StringRef kind) -> llvm::Error {
    llvm::Expected<int> s = slot(x, inst);
    if (!s)
      return s.takeError();
    push(Expression::Step::Unary, kind, 0, 0, *s);
    slotOf[inst->getResult(0)] = *s;
    return llvm::Error::success();
  };
  for (Operation &inst : body) {
    if (inner.contains(&inst) || isa<arith::ConstantOp>(inst))
      continue;
    llvm::Error error = llvm::Error::success();
    if (&inst == end) {
      Value acc = body.getArgument(unsigned(inputs));
      Value x =
          inst.getOperand(0) == acc ? inst.getOperand(1) : inst.getOperand(0);
      llvm::Expected<int> s = slot(x, &inst);
      if (!s)
        return s.takeError();
      expr.result = *s;
      break;
    }
    if (auto yield = dyn_cast<linalg::YieldOp>(inst)) {
      llvm::Expected<int> s = slot(yield.getOperand(0), &inst);
      if (!s)
        return s.takeError();
      expr.result = *s;
      break;
    }
    if (gelus.count(&inst)) {
      error = unary(&inst, gelus[&inst], "gelu");
    } else if (auto max = dyn_cast<arith::MaximumFOp>(inst);
               max && isConstant(max.getRhs(), 0.0)) {
      error = unary(&inst, max.getLhs(), "relu");
    } else if (auto div = dyn_cast<arith::DivFOp>(inst);
               div && isConstant(div.getLhs(), 1.0)) {
      error = unary(&inst, div.getRhs(), "recip");
    } else if (isa<math::ExpOp, arith::NegFOp, math::AbsFOp, math::SqrtOp,
                   math::RsqrtOp, math::TanhOp>(inst)) {
      llvm::StringRef kind = isa<math::ExpOp>(inst)     ? "exp"
                             : isa<arith::NegFOp>(inst) ? "neg"
                             : isa<math::AbsFOp>(inst)  ? "abs"
                             : isa<math::SqrtOp>(inst)  ? "sqrt"
                             : isa<math::TanhOp>(inst)  ? "tanh"
                                                        : "rsqrt";
      error = unary(&inst, inst.getOperand(0), kind);
    } else if (auto [kind, x, c] = scalarForm(inst); !kind.empty()) {
      llvm::Expected<int> s = slot(x, &inst);
      if (!s)
        return s.takeError();
      push(Expression::Step::Scalar, kind, 0, 0, *s);
      expr.steps.back().scalar = float(c);
      slotOf[inst.getResult(0)] = *s;
    } else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp,
                   arith::MaximumFOp>(inst)) {
      llvm::StringRef kind = isa<arith::AddFOp>(inst)   ? "add"
                             : isa<arith::SubFOp>(inst) ? "sub"
                             : isa<arith::MulFOp>(inst) ? "mul"
                                                        : "max";
      llvm::Expected<int> lhs = slot(inst.getOperand(0), &inst);
      if (!lhs)
        return lhs.takeError();
      llvm::Expected<int> rhs = slot(inst.getOperand(1), &inst);
      if (!rhs)
        return rhs.takeError();
      push(Expression::Step::Binary, kind, *lhs, *rhs, *lhs);
      // The right operand's value is dead (read once): its slot is free.
      if (*rhs != *lhs && *rhs >= firstOperand)
        freeSlots.insert(*rhs);
      slotOf[inst.getResult(0)] = *lhs;
    } else {
      return unsupported(&inst, "has no tile-engine equivalent");
    }
    if (error)
      return std::move(error);
  }
  return expr;
}

llvm::Error
strata::tile::emitExpression(KernelText &k, const Expression &expr,
                             const std::vector<std::string> &buffers,
                             const std::vector<std::string> &tiles,
                             const std::string &base,
                             const std::vector<bool> &broadcast) {
  std::map<int, std::string> slots; // each slot's index, computed once
  auto dst = [&](int slot) {
    std::string &name = slots[slot];
    if (name.empty())
      name = base.empty() ? k.c(slot)
             : slot == 0  ? base
                          : k.add(base, k.c(slot));
    return name;
  };
  // Loads are emitted when their slot is first used, so that a binary op of
  // a loaded tile and a column-broadcast one is one tile.binary.
  std::map<int, int> pending; // slot -> operand
  auto isBroadcast = [&](int operand) {
    return size_t(operand) < broadcast.size() && broadcast[operand];
  };
  auto use = [&](int slot) -> llvm::Error {
    auto it = pending.find(slot);
    if (it == pending.end())
      return llvm::Error::success();
    // A vector operand in Dst: the unpacker broadcasts its column 0.
    k.line(llvm::formatv("tile.unpack_tile @{0}[{1}] -> dst[{2}]{3}",
                         buffers[it->second], tiles[it->second], dst(slot),
                         isBroadcast(it->second) ? " bcast col" : ""));
    pending.erase(it);
    return llvm::Error::success();
  };
  for (const Expression::Step &step : expr.steps) {
    switch (step.kind) {
    case Expression::Step::Load:
      pending[step.slot] = step.operand;
      break;
    case Expression::Step::Binary: {
      auto lhs = pending.find(step.lhs), rhs = pending.find(step.rhs);
      if (lhs != pending.end() && rhs != pending.end() &&
          !isBroadcast(lhs->second) && isBroadcast(rhs->second)) {
        k.line(llvm::formatv(
            "tile.binary {0} @{1}[{2}], @{3}[{4}] -> dst[{5}] bcast col",
            step.op, buffers[lhs->second], tiles[lhs->second],
            buffers[rhs->second], tiles[rhs->second], dst(step.slot)));
        pending.erase(step.lhs);
        pending.erase(step.rhs);
        break;
      }
      if (llvm::Error error = use(step.lhs))
        return error;
      if (llvm::Error error = use(step.rhs))
        return error;
      k.line(llvm::formatv("tile.binary_dst {0} dst[{1}], dst[{2}] -> dst[{3}]",
                           step.op, dst(step.lhs), dst(step.rhs),
                           dst(step.slot)));
      break;
    }
    case Expression::Step::Unary:
      if (llvm::Error error = use(step.slot))
        return error;
      k.line(llvm::formatv("tile.unary {0} dst[{1}]", step.op, dst(step.slot)));
      break;
    case Expression::Step::Scalar: {
      if (llvm::Error error = use(step.slot))
        return error;
      // The immediate in hexadecimal: exactly the f32 value.
      llvm::APFloat value(step.scalar);
      k.line(llvm::formatv(
          "tile.unary_scalar {0} dst[{1}], 0x{2}", step.op, dst(step.slot),
          llvm::utohexstr(value.bitcastToAPInt().getZExtValue(),
                          /*LowerCase=*/false, 8)));
      break;
    }
    }
  }
  return use(expr.result);
}

std::string strata::tile::declareTensor(const TensorDecl &tensor) {
  std::string attrs;
  if (!tensor.hostShape.empty()) {
    attrs = " {host_shape = array<i64";
    for (size_t i = 0; i < tensor.hostShape.size(); ++i)
      attrs += (i ? ", " : ": ") + std::to_string(tensor.hostShape[i]);
    attrs += ">";
    if (tensor.replicateRows)
      attrs += ", replicate_rows";
    if (tensor.replicateCols)
      attrs += ", replicate_cols";
    if (tensor.flatten)
      attrs += ", flatten";
    attrs += "}";
  }
  return llvm::formatv("  tile.dram_tensor @{0} {1}{2} : "
                       "!tile.dram<{3}x{4}x{5}, #tile.interleaved>\n",
                       tensor.name, tensor.output ? "output" : "input", attrs,
                       tensor.rows, tensor.cols, tensor.type);
}
