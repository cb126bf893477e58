//===- OutlineGroups.cpp - One function per group around bufferization ----===//
//
// One-Shot Bufferize and empty-tensor elimination analyse each function as a
// whole; their cost grows faster than the function (use-def chains walked
// back for every written operand, alias sets checked against every use), so
// a whole network scheduled into one function of a hundred loop nests spent
// most of its compile time there. `strata-outline-groups` puts each group
// (a top-level op with regions or a destination: a scheduled loop nest, a
// pad, a copy) into a private function of its own before bufferization, and
// `strata-inline-groups` puts the bodies back after it. Function-boundary
// bufferization carries in-place results across the calls (a result
// equivalent to an argument is that argument's buffer), so the bufferized
// code is the same as without the detour, reached in time linear in the
// number of groups.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace strata {
#define GEN_PASS_DEF_STRATAOUTLINEGROUPS
#define GEN_PASS_DEF_STRATAINLINEGROUPS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

static constexpr llvm::StringLiteral kGroupAttr = "strata.group";

static bool isTensor(Type type) { return isa<TensorType>(type); }

/// Ops cloned into every group that reads them rather than passed in: views
/// (so that arguments are whole buffers with identity layouts, passed
/// without copies), empty tensors and single-use fills (so that a group's
/// destination stays visible to empty-tensor elimination in it), and pure
/// scalar or vector ops (constants, index arithmetic).
static bool isCloned(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill->hasOneUse();
  if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    return !isTensor(constant.getType()) ||
           isa<SplatElementsAttr>(constant.getValue());
  if (llvm::any_of(op->getResultTypes(), isTensor))
    return isa<tensor::EmptyOp, tensor::ExtractSliceOp, tensor::CollapseShapeOp,
               tensor::ExpandShapeOp, tensor::CastOp>(op);
  return true;
}

/// A group: an op doing work on tensors, a loop nest or an op with a
/// destination, that is not cloned into its readers.
static bool isGroup(Operation *op) {
  if (isCloned(op) || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  bool onTensors = llvm::any_of(op->getOperandTypes(), isTensor) ||
                   llvm::any_of(op->getResultTypes(), isTensor);
  return onTensors &&
         (op->getNumRegions() != 0 || isa<DestinationStyleOpInterface>(op));
}

/// The insert of `group`'s only result into a larger tensor, when that is
/// its only use: it goes into the group's function, which then writes the
/// larger tensor's buffer in place instead of returning a tile to copy.
static tensor::InsertSliceOp absorbedInsert(Operation *group) {
  if (group->getNumResults() != 1 || !group->getResult(0).hasOneUse())
    return nullptr;
  auto insert =
      dyn_cast<tensor::InsertSliceOp>(*group->getResult(0).getUsers().begin());
  if (!insert || insert.getSource() != group->getResult(0) ||
      insert->getBlock() != group->getBlock())
    return nullptr;
  return insert;
}

namespace {
/// The values a group reads, split into the function's arguments and the
/// ops cloned into it (in an order where each op follows its operands).
struct Captures {
  llvm::SetVector<Value> arguments;
  llvm::SetVector<Operation *> cloned;

  void add(Value value, Block *top) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != top || !isCloned(def)) {
      arguments.insert(value);
      return;
    }
    if (cloned.contains(def))
      return;
    for (Value operand : def->getOperands())
      add(operand, top);
    cloned.insert(def);
  }

  /// Everything `op` uses from outside itself, `exclude` (the group's own
  /// result, read by its absorbed insert) aside.
  void addUsesOf(Operation *op, Value exclude = {}) {
    Block *top = op->getBlock();
    for (Value operand : op->getOperands())
      if (operand != exclude)
        add(operand, top);
    llvm::SetVector<Value> above;
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, above);
    for (Value value : above)
      add(value, top);
  }
};
} // namespace

/// Outlines `group` (and `insert`, when absorbed) into a private function
/// named after `func`, called where the last of them was.
static void outline(func::FuncOp func, Operation *group,
                    tensor::InsertSliceOp insert, SymbolTable &symbols) {
  Captures captures;
  captures.addUsesOf(group);
  if (insert)
    captures.addUsesOf(insert, group->getResult(0));
  Operation *last = insert ? insert.getOperation() : group;
  SmallVector<Value> results(last->getResults());

  Location loc = group->getLoc();
  SmallVector<Type> argTypes;
  for (Value arg : captures.arguments)
    argTypes.push_back(arg.getType());
  auto type = FunctionType::get(func.getContext(), argTypes,
                                ValueRange(results).getTypes());
  OpBuilder moduleBuilder(func);
  auto callee = func::FuncOp::create(
      moduleBuilder, loc, (func.getSymName() + "_group").str(), type);
  callee.setPrivate();
  callee->setAttr(kGroupAttr, UnitAttr::get(func.getContext()));
  symbols.insert(callee);

  Block *body = callee.addEntryBlock();
  IRMapping mapping;
  mapping.map(captures.arguments.getArrayRef(), body->getArguments());
  OpBuilder builder = OpBuilder::atBlockEnd(body);
  for (Operation *op : captures.cloned)
    builder.clone(*op, mapping);
  builder.clone(*group, mapping);
  if (insert)
    builder.clone(*insert, mapping);
  SmallVector<Value> returned;
  for (Value result : results)
    returned.push_back(mapping.lookup(result));
  func::ReturnOp::create(builder, loc, returned);

  builder.setInsertionPoint(last);
  auto call = func::CallOp::create(builder, loc, callee,
                                   captures.arguments.getArrayRef());
  last->replaceAllUsesWith(call.getResults());
  if (insert)
    insert->erase();
  group->erase();
}

/// Erases the top-level ops of `block` left without uses by the outlining
/// (views and constants now cloned into the groups).
static void eraseDeadOps(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    if (isOpTriviallyDead(&op))
      op.erase();
}

namespace {
struct OutlineGroups : strata::impl::StrataOutlineGroupsBase<OutlineGroups> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || func->hasAttr(kGroupAttr) ||
          !func.getBody().hasOneBlock())
        continue;
      Block &entry = func.getBody().front();
      // Groups and their absorbed inserts, found before any is moved.
      SmallVector<std::pair<Operation *, tensor::InsertSliceOp>> groups;
      llvm::SmallPtrSet<Operation *, 8> absorbed;
      for (Operation &op : entry) {
        if (absorbed.contains(&op) || !isGroup(&op))
          continue;
        tensor::InsertSliceOp insert = absorbedInsert(&op);
        if (insert)
          absorbed.insert(insert);
        groups.emplace_back(&op, insert);
      }
      if (groups.size() < minGroups)
        continue;
      for (auto [group, insert] : groups)
        outline(func, group, insert, symbols);
      eraseDeadOps(entry);
    }
  }
};

struct InlineGroups : strata::impl::StrataInlineGroupsBase<InlineGroups> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && callee->hasAttr(kGroupAttr))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee.getBody().hasOneBlock()) {
        call.emitOpError("calls a group that is no longer one block");
        return signalPassFailure();
      }
      Block &body = callee.getBody().front();
      IRMapping mapping;
      mapping.map(body.getArguments(), call.getOperands());
      OpBuilder builder(call);
      for (Operation &op : body.without_terminator())
        builder.clone(op, mapping);
      SmallVector<Value> results;
      for (Value value : body.getTerminator()->getOperands())
        results.push_back(mapping.lookupOrDefault(value));
      call.replaceAllUsesWith(results);
      call.erase();
    }
    for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (func->hasAttr(kGroupAttr))
        func.erase();
  }
};
} // namespace
