//===- Expression.cpp - Elementwise bodies as Dst operations --------------===//
//
// The body of an elementwise linalg.generic becomes a short sequence of
// accumulator (Dst) operations per tile. First each op becomes a node of
// the vector engine: max(x, 0) becomes relu, 1 / x recip and x / y recip then
// mul; arithmetic with a constant operand is the vector engine's scalar form (x
// * 0.5 -> unary_scalar mul, c - x -> rsub, x / c -> mul by 1 / c). Anything
// else is an error naming the op.
//
// Booleans (i1) are 1.0 and 0.0 in Dst: a comparison with a constant is
// the scalar form's eq ... ge, one of two values binary_dst's, `not` (xor
// with true) is 1 - b, `and` a
// product, `or` a max, an unsigned conversion to float the value itself,
// and arith.select the vector engine's where_dst, a constant operand of it
// first filled into a slot of its own.
//
// Then slots are chosen by liveness, so a body may read any value any
// number of times (a DAG, e.g. GELU in its tanh form). Each value's reads
// still to come are counted (x * x: two, in one op). Unary and scalar ops
// work in place: on the value's own slot at its last read, else on a copy
// (Step::Copy, a vector-engine max(x, x)), or for an input on a second
// unpack of its tile, which costs far less than a copy (an unpack pass
// against a vector-engine op in the cycle model). binary_dst writes any
// slot: the slot of an operand read for the last time, else a free one.
// A slot is free once its value's last read is done. Inputs are unpacked
// once and kept while they are read; when that needs more slots than one
// Dst acquire gives, every read unpacks them again, and if that still does
// not fit, the error names the op that needed the most slots. The values
// already in Dst (a matmul epilogue's accumulator) are copied like computed
// ones.
//
//===----------------------------------------------------------------------===//
#include "Programs.h"
#include "strata/Codegen/BodyValues.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace strata::tile;
using strata::codegen::constantValue;

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

/// One vector-engine operation of the body, before slots are chosen.
struct Node {
  enum Kind {
    Unary,  // name(x), in place
    Scalar, // x name scalar, in place
    Binary, // lhs name rhs, into any slot
    Divide, // lhs / rhs: recip of rhs in place, then mul
    Over,   // scalar / x: recip of x in place, then times the scalar
    Select, // cond ? a : b (where_dst); a null read is constants[i]
    Result, // the yielded value (or the reduction's operand)
  } kind;
  Operation *op;
  llvm::StringRef name;
  float scalar = 0;
  SmallVector<Value, 2> reads;
  SmallVector<float, 3> constants = {0, 0, 0}; // Select's constant operands
};

/// The scalar form of a comparison of a value with a constant (c on either
/// side), or "" when the predicate has none (the unordered ones but une,
/// and one, whose NaN cases differ).
llvm::StringRef comparisonName(arith::CmpFPredicate predicate,
                               bool constantFirst) {
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::OEQ:
    return "eq";
  case P::UNE:
    return "ne";
  case P::OLT:
    return constantFirst ? "gt" : "lt";
  case P::OLE:
    return constantFirst ? "ge" : "le";
  case P::OGT:
    return constantFirst ? "lt" : "gt";
  case P::OGE:
    return constantFirst ? "le" : "ge";
  default:
    return "";
  }
}

bool isTrue(Value v) {
  auto cst = v.getDefiningOp<arith::ConstantOp>();
  auto value = cst ? dyn_cast<IntegerAttr>(cst.getValue()) : IntegerAttr();
  return value && value.getType().isInteger(1) && value.getValue().isOne();
}

bool isBoolean(Value v) { return v.getType().isInteger(1); }

/// The body (up to `end`) as nodes in program order; an error names the
/// first op the engines lack or the first operand they cannot read.
llvm::Expected<std::vector<Node>> nodesOf(linalg::GenericOp op,
                                          int firstOperand, Operation *end) {
  Block &body = op.getRegion().front();
  int inputs = int(op.getNumDpsInputs());
  std::vector<Node> nodes;
  llvm::DenseSet<Value> computed;
  DenseMap<Value, Value> aliases; // values that are another's (exact casts)
  auto add = [&](Node::Kind kind, Operation *inst, llvm::StringRef name,
                 ArrayRef<Value> operands) -> llvm::Error {
    // (A null operand is a select's constant branch, filled in place.)
    SmallVector<Value, 2> reads;
    for (Value v : operands)
      reads.push_back(aliases.lookup(v) ? aliases.lookup(v) : v);
    for (Value v : reads) {
      if (!v)
        continue;
      auto arg = dyn_cast<BlockArgument>(v);
      if (arg && int(arg.getArgNumber()) >= inputs)
        return unsupported(inst, "reads the output's old value");
      if (!arg && !computed.contains(v))
        return unsupported(inst, "takes an operand that is not an input or "
                                 "a computed value (the tile engines take a "
                                 "constant only as the scalar of add, sub, "
                                 "mul, max, min or a division by it)");
    }
    nodes.push_back({kind, inst, name, 0, reads});
    if (kind != Node::Result)
      computed.insert(inst->getResult(0));
    return llvm::Error::success();
  };
  for (Operation &inst : body) {
    if (isa<arith::ConstantOp>(inst))
      continue;
    llvm::Error error = llvm::Error::success();
    if (&inst == end) {
      Value acc = body.getArgument(unsigned(inputs));
      Value x =
          inst.getOperand(0) == acc ? inst.getOperand(1) : inst.getOperand(0);
      error = add(Node::Result, &inst, "", {x});
    } else if (auto yield = dyn_cast<linalg::YieldOp>(inst)) {
      error = add(Node::Result, &inst, "", {yield.getOperand(0)});
    } else if (auto max = dyn_cast<arith::MaximumFOp>(inst);
               max && isConstant(max.getRhs(), 0.0)) {
      error = add(Node::Unary, &inst, "relu", {max.getLhs()});
    } else if (auto div = dyn_cast<arith::DivFOp>(inst);
               div && isConstant(div.getLhs(), 1.0)) {
      error = add(Node::Unary, &inst, "recip", {div.getRhs()});
    } else if (auto trunc = dyn_cast<arith::TruncFOp>(inst);
               trunc && trunc.getType().isBF16() &&
               trunc.getIn().getType().isF32()) {
      // A program's own rounding: Dst keeps f32, the value becomes a bf16's.
      error = add(Node::Unary, &inst, "round_bf16", {trunc.getIn()});
    } else if (auto ext = dyn_cast<arith::ExtFOp>(inst);
               ext &&
               (ext.getIn().getType().isBF16() ||
                ext.getIn().getType().isF16()) &&
               ext.getType().isF32() &&
               (computed.contains(ext.getIn()) ||
                isa<BlockArgument>(ext.getIn()))) {
      // bf16 (or f16) to f32 is exact: the value of its operand, in its
      // slot (an input's bf16 tile is unpacked into Dst's f32 exactly; f16
      // values are f32 on the chip).
      aliases[ext.getResult()] = ext.getIn();
    } else if (auto cmp = dyn_cast<arith::CmpFOp>(inst)) {
      // With a constant: the scalar form; of two computed values:
      // binary_dst's comparison.
      std::optional<double> l = constantValue(cmp.getLhs()),
                            r = constantValue(cmp.getRhs());
      bool first = l && !r;
      llvm::StringRef kind = comparisonName(cmp.getPredicate(), first);
      if (kind.empty())
        return unsupported(&inst, "compares with a predicate the vector "
                                  "engine lacks (it has oeq, une, olt, ole, "
                                  "ogt and oge)");
      if (l.has_value() != r.has_value()) {
        error = add(Node::Scalar, &inst, kind,
                    {first ? cmp.getRhs() : cmp.getLhs()});
        if (!error)
          nodes.back().scalar = float(first ? *l : *r);
      } else {
        error = add(Node::Binary, &inst, kind, {cmp.getLhs(), cmp.getRhs()});
      }
    } else if (auto xorOp = dyn_cast<arith::XOrIOp>(inst);
               xorOp && isBoolean(xorOp.getResult()) &&
               (isTrue(xorOp.getLhs()) || isTrue(xorOp.getRhs()))) {
      // not b: 1 - b.
      error = add(Node::Scalar, &inst, "rsub",
                  {isTrue(xorOp.getLhs()) ? xorOp.getRhs() : xorOp.getLhs()});
      if (!error)
        nodes.back().scalar = 1.0f;
    } else if (isa<arith::AndIOp, arith::OrIOp>(inst) &&
               isBoolean(inst.getResult(0))) {
      error = add(Node::Binary, &inst, isa<arith::AndIOp>(inst) ? "mul" : "max",
                  {inst.getOperand(0), inst.getOperand(1)});
    } else if (auto toFloat = dyn_cast<arith::UIToFPOp>(inst);
               toFloat && isBoolean(toFloat.getIn()) &&
               (computed.contains(toFloat.getIn()) ||
                isa<BlockArgument>(toFloat.getIn()))) {
      aliases[toFloat.getResult()] = toFloat.getIn(); // 0 or 1 already
    } else if (auto select = dyn_cast<arith::SelectOp>(inst);
               select && !constantValue(select.getCondition())) {
      // Constant branches are filled into slots of their own.
      SmallVector<Value, 3> operands;
      SmallVector<float, 3> constants = {0, 0, 0};
      for (auto [i, v] : llvm::enumerate(select->getOperands())) {
        std::optional<double> c = i ? constantValue(v) : std::nullopt;
        operands.push_back(c ? Value() : v);
        if (c)
          constants[i] = float(*c);
      }
      error = add(Node::Select, &inst, "where", operands);
      if (!error)
        nodes.back().constants = constants;
    } else if (isa<math::ExpOp, arith::NegFOp, math::AbsFOp, math::SqrtOp,
                   math::RsqrtOp, math::TanhOp, math::LogOp, math::SinOp,
                   math::CosOp, math::ErfOp>(inst)) {
      llvm::StringRef kind = isa<math::ExpOp>(inst)     ? "exp"
                             : isa<arith::NegFOp>(inst) ? "neg"
                             : isa<math::AbsFOp>(inst)  ? "abs"
                             : isa<math::SqrtOp>(inst)  ? "sqrt"
                             : isa<math::TanhOp>(inst)  ? "tanh"
                             : isa<math::LogOp>(inst)   ? "log"
                             : isa<math::SinOp>(inst)   ? "sin"
                             : isa<math::CosOp>(inst)   ? "cos"
                             : isa<math::ErfOp>(inst)   ? "erf"
                                                        : "rsqrt";
      error = add(Node::Unary, &inst, kind, {inst.getOperand(0)});
    } else if (auto [kind, x, c] = scalarForm(inst); !kind.empty()) {
      error = add(Node::Scalar, &inst, kind, {x});
      if (!error)
        nodes.back().scalar = float(c);
    } else if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp,
                   arith::MaximumFOp, arith::MinimumFOp>(inst)) {
      llvm::StringRef kind = isa<arith::AddFOp>(inst)       ? "add"
                             : isa<arith::SubFOp>(inst)     ? "sub"
                             : isa<arith::MulFOp>(inst)     ? "mul"
                             : isa<arith::MinimumFOp>(inst) ? "min"
                                                            : "max";
      error = add(Node::Binary, &inst, kind,
                  {inst.getOperand(0), inst.getOperand(1)});
    } else if (isa<arith::DivFOp>(inst) && !constantValue(inst.getOperand(0)) &&
               !constantValue(inst.getOperand(1))) {
      // x / y as x * (1 / y): the vector engine has no division.
      error = add(Node::Divide, &inst, "mul",
                  {inst.getOperand(0), inst.getOperand(1)});
    } else if (std::optional<double> c = isa<arith::DivFOp>(inst)
                                             ? constantValue(inst.getOperand(0))
                                             : std::nullopt;
               c && !constantValue(inst.getOperand(1))) {
      // c / x as (1 / x) * c.
      error = add(Node::Over, &inst, "mul", {inst.getOperand(1)});
      if (!error)
        nodes.back().scalar = float(*c);
    } else {
      return unsupported(&inst, "has no tile-engine equivalent");
    }
    if (error)
      return std::move(error);
    // (An exact cast of an input adds no node: none may be there yet.)
    if (!nodes.empty() && nodes.back().kind == Node::Result)
      break;
  }
  return nodes;
}

/// Chooses the slots of `nodes` by liveness (see the file's comment).
/// `keepInputs`: an input read by several ops stays in its slot between
/// them; else every op reads it afresh.
class Allocator {
public:
  Allocator(linalg::GenericOp op, int firstOperand, bool keepInputs)
      : keepInputs(keepInputs), firstOperand(firstOperand),
        inputs(int(op.getNumDpsInputs())) {
    expr.slots = firstOperand;
    // The operands already in Dst (a matmul's accumulator) are computed
    // values: they can only be copied, not reloaded.
    for (int i = 0; i < firstOperand; ++i)
      slotOf[op.getRegion().front().getArgument(unsigned(i))] = i;
  }

  Expression run(ArrayRef<Node> nodes) {
    for (const Node &node : nodes)
      for (Value v : node.reads)
        if (v)
          ++remaining[v];
    for (const Node &node : nodes) {
      current = node.op;
      Value result =
          node.kind == Node::Result ? Value() : node.op->getResult(0);
      int slot = 0;
      switch (node.kind) {
      case Node::Unary:
      case Node::Scalar:
        slot = consume(node.reads[0]);
        push(node.kind == Node::Unary ? Step::Unary : Step::Scalar, node.name,
             0, 0, slot);
        expr.steps.back().scalar = node.scalar;
        break;
      case Node::Binary:
        slot = binary(node.name, node.reads[0], node.reads[1]);
        break;
      case Node::Over:
        slot = consume(node.reads[0]);
        push(Step::Unary, "recip", 0, 0, slot);
        push(Step::Scalar, node.name, 0, 0, slot);
        expr.steps.back().scalar = node.scalar;
        break;
      case Node::Divide: {
        int rhs = consume(node.reads[1]);
        push(Step::Unary, "recip", 0, 0, rhs);
        slot = binary(node.name, node.reads[0], Value(), rhs);
        break;
      }
      case Node::Select:
        slot = select(node);
        break;
      case Node::Result:
        expr.result = operand(node.reads[0]);
        return expr;
      }
      slotOf[result] = slot;
      // A value nothing reads gives its slot back at once.
      if (!remaining.lookup(result))
        release(result, -1);
    }
    return expr;
  }

  Expression expr;
  Operation *peak = nullptr; // the op that first needed `expr.slots`

private:
  using Step = Expression::Step;

  bool isInput(Value v) const {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && int(arg.getArgNumber()) >= firstOperand &&
           int(arg.getArgNumber()) < inputs;
  }
  void push(Step::Kind kind, llvm::StringRef op, int a, int rhs, int slot) {
    Step step;
    step.kind = kind;
    step.op = op.str();
    step.operand = kind == Step::Load ? a : 0;
    step.lhs = kind == Step::Binary || kind == Step::Copy || kind == Step::Where
                   ? a
                   : 0;
    step.rhs = rhs;
    step.slot = slot;
    expr.steps.push_back(step);
  }
  /// The lowest free slot, else a new one.
  int fresh() {
    if (!freeSlots.empty())
      return freeSlots.extract(freeSlots.begin()).value();
    peak = current;
    return expr.slots++;
  }
  /// Input `v` unpacked into a free slot.
  int load(Value v) {
    int slot = fresh();
    push(Step::Load, "", int(cast<BlockArgument>(v).getArgNumber()), 0, slot);
    return slot;
  }
  /// The slot holding `v` for an op that reads it without writing it.
  int operand(Value v) {
    auto it = slotOf.find(v);
    if (it != slotOf.end())
      return it->second;
    return slotOf[v] = load(v);
  }
  /// After an op read `v`: its slot is free once nothing else reads it (or,
  /// for an input not kept, at once); `keep` is the op's result slot.
  void release(Value v, int keep) {
    auto it = slotOf.find(v);
    if (it == slotOf.end() ||
        (remaining.lookup(v) && (keepInputs || !isInput(v))))
      return;
    if (it->second != keep)
      freeSlots.insert(it->second);
    slotOf.erase(it);
  }
  /// A slot holding `v` that an in-place op may overwrite: its own when
  /// this is its last read, else an input unpacked again (an unpack costs
  /// far less than a vector-engine copy) or a computed value copied.
  int consume(Value v) {
    --remaining[v];
    auto it = slotOf.find(v);
    if (!remaining[v] && it != slotOf.end()) {
      int slot = it->second;
      slotOf.erase(it);
      return slot;
    }
    if (isInput(v))
      return load(v);
    int slot = fresh();
    push(Step::Copy, "", it->second, 0, slot);
    return slot;
  }
  /// lhs op rhs (rhs: a value, or a temporary already in `rhsSlot`) into
  /// the slot of an operand read for the last time, else a free one: the
  /// vector engine writes any slot, so no operand needs a copy.
  int binary(llvm::StringRef op, Value lhs, Value rhs, int rhsSlot = -1) {
    int l = operand(lhs), r = rhs ? operand(rhs) : rhsSlot;
    --remaining[lhs];
    if (rhs)
      --remaining[rhs];
    auto dead = [&](Value v) {
      return !remaining.lookup(v) || (!keepInputs && isInput(v));
    };
    int slot = dead(lhs) ? l : !rhs || dead(rhs) ? r : fresh();
    push(Step::Binary, op, l, r, slot);
    release(lhs, slot);
    if (rhs)
      release(rhs, slot);
    else if (r != slot)
      freeSlots.insert(r);
    return slot;
  }

  /// cond ? a : b into the slot of an operand read for the last time, a
  /// filled constant's, else a free one.
  int select(const Node &node) {
    int slots[3];
    bool filled[3] = {false, false, false};
    for (int i = 0; i < 3; ++i) {
      if (node.reads[i]) {
        slots[i] = operand(node.reads[i]);
        continue;
      }
      slots[i] = fresh();
      filled[i] = true;
      push(Step::Scalar, "fill", 0, 0, slots[i]);
      expr.steps.back().scalar = node.constants[i];
    }
    for (Value v : node.reads)
      if (v)
        --remaining[v];
    auto dead = [&](Value v) {
      return !v || !remaining.lookup(v) || (!keepInputs && isInput(v));
    };
    int slot = -1;
    for (int i = 0; i < 3 && slot < 0; ++i)
      if (dead(node.reads[i]))
        slot = slots[i];
    if (slot < 0)
      slot = fresh();
    push(Step::Where, "", slots[0], slots[1], slot);
    expr.steps.back().third = slots[2];
    for (int i = 0; i < 3; ++i) {
      if (node.reads[i])
        release(node.reads[i], slot);
      else if (slots[i] != slot)
        freeSlots.insert(slots[i]);
    }
    return slot;
  }

  bool keepInputs;
  int firstOperand, inputs;
  Operation *current = nullptr;
  DenseMap<Value, int> remaining; // reads still to come
  DenseMap<Value, int> slotOf;    // where each live value is
  std::set<int> freeSlots;
};
} // namespace

llvm::Expected<Expression> strata::tile::translateBody(linalg::GenericOp op,
                                                       int firstOperand,
                                                       int64_t capacity,
                                                       Operation *end) {
  // A constant yielded with nothing computed (a fill, a pad's): the slot
  // holds zero from the acquire on, plus the constant.
  auto yield = cast<linalg::YieldOp>(op.getRegion().front().getTerminator());
  if (!end && firstOperand == 0 && yield.getNumOperands() == 1)
    if (std::optional<double> c = constantValue(yield.getOperand(0))) {
      Expression expr;
      Expression::Step step;
      step.kind = Expression::Step::Scalar;
      step.op = "add";
      step.scalar = float(*c);
      expr.steps.push_back(step);
      return expr;
    }
  llvm::Expected<std::vector<Node>> nodes = nodesOf(op, firstOperand, end);
  if (!nodes)
    return nodes.takeError();
  // Inputs kept in Dst between their reads save unpacks; when that needs
  // more slots than Dst has, they are unpacked at every read instead.
  Allocator kept(op, firstOperand, /*keepInputs=*/true);
  Expression expr = kept.run(*nodes);
  if (expr.slots <= capacity)
    return expr;
  Allocator reloaded(op, firstOperand, /*keepInputs=*/false);
  expr = reloaded.run(*nodes);
  if (expr.slots <= capacity)
    return expr;
  // Where the op is, since a body often has several of its kind.
  Operation *peak = reloaded.peak ? reloaded.peak : op.getOperation();
  std::string at;
  if (auto loc = dyn_cast<FileLineColLoc>(peak->getLoc()))
    at = llvm::formatv("at line {0} ", loc.getLine()).str();
  return unsupported(peak,
                     llvm::formatv("{0}needs {1} Dst tiles for the values "
                                   "live at once; one acquire gives {2}",
                                   at, expr.slots, capacity)
                         .str());
}

std::string strata::tile::declareTensor(const TensorDecl &tensor) {
  std::string attrs;
  if (!tensor.hostShape.empty() || tensor.vector) {
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
    if (tensor.column)
      attrs += ", column";
    if (tensor.vector)
      attrs += ", vector";
    if (tensor.padValue != 0.0f)
      attrs +=
          std::isinf(tensor.padValue)
              ? (tensor.padValue < 0 ? ", pad = 0xFF800000 : f32"
                                     : ", pad = 0x7F800000 : f32")
              : llvm::formatv(", pad = {0:e} : f32", tensor.padValue).str();
    attrs += "}";
  }
  return llvm::formatv("  tile.dram_tensor @{0} {1}{2} : "
                       "!tile.dram<{3}x{4}x{5}, #tile.interleaved>\n",
                       tensor.name, tensor.output ? "output" : "input", attrs,
                       tensor.rows, tensor.cols, elementTypeText(tensor.type));
}
