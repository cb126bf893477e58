//===- Interpreter.cpp - Running a kernel instance's frames ---------------===//
//
// An instance is a stack of frames, one per block being run (the kernel's
// body, then the body of each scf.for / scf.if entered). An op that cannot
// proceed returns Blocked without any effect and is executed again when the
// instance is resumed, so an instance can be suspended at any op.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace strata::tile;

Step Machine::runInstance(Instance &inst, bool &progressed) {
  progressed = false;
  while (!inst.frames.empty()) {
    Frame &frame = inst.frames.back();
    if (frame.next == frame.block->end()) {
      // Only the kernel's body ends without a terminator.
      inst.frames.pop_back();
      continue;
    }
    Operation *op = &*frame.next;
    Step step = execute(op, inst);
    switch (step) {
    case Step::Next:
      ++inst.frames.back().next;
      [[fallthrough]];
    case Step::Jumped:
      progressed = true;
      inst.blockedOp = nullptr;
      ++stats.operations;
      continue;
    case Step::Blocked:
    case Step::Failed:
      return step;
    }
  }
  inst.finished = true;
  return Step::Next;
}

Step Machine::execute(Operation *op, Instance &inst) {
  if (isa<scf::ForOp>(op))
    return enterFor(op, inst);
  if (isa<scf::IfOp>(op))
    return enterIf(op, inst);
  if (isa<scf::YieldOp>(op))
    return yield(op, inst);
  Dialect *dialect = op->getDialect();
  if (dialect && dialect->getNamespace() == "tile") {
    if (isa<CoreRowOp>(op)) {
      inst.values[op->getResult(0)].i = inst.row;
      return Step::Next;
    }
    if (isa<CoreColOp>(op)) {
      inst.values[op->getResult(0)].i = inst.col;
      return Step::Next;
    }
    if (isa<CBReserveBackOp, CBPushBackOp, CBWaitFrontOp, CBPopFrontOp,
            CBWritePtrOp, CBReadPtrOp>(op))
      return executeBuffer(op, inst);
    if (inst.kind == KernelKind::compute)
      return executeCompute(op, inst);
    return executeNoc(op, inst);
  }
  return executeScalar(op, inst);
}

/// Binds the block arguments of `block` to `values`.
static void bindArguments(Instance &inst, Block *block, unsigned first,
                          ArrayRef<Scalar> values) {
  for (auto [i, value] : llvm::enumerate(values))
    inst.values[block->getArgument(first + i)] = value;
}

Step Machine::enterFor(Operation *op, Instance &inst) {
  auto loop = cast<scf::ForOp>(op);
  int64_t lower = get(inst, loop.getLowerBound());
  int64_t upper = get(inst, loop.getUpperBound());
  int64_t step = get(inst, loop.getStep());
  if (step <= 0) {
    error(op, inst) << "scf.for step must be positive, got " << step;
    return Step::Failed;
  }
  SmallVector<Scalar, 4> inits;
  for (Value init : loop.getInitArgs())
    inits.push_back(inst.values.find(init)->second);
  ++inst.frames.back().next; // where to continue after the loop
  if (lower >= upper) {
    for (auto [result, value] : llvm::zip(loop.getResults(), inits))
      inst.values[result] = value;
    return Step::Jumped;
  }
  Block *body = loop.getBody();
  inst.values[loop.getInductionVar()].i = lower;
  bindArguments(inst, body, 1, inits);
  inst.frames.push_back(Frame{body, body->begin(), op, lower, upper, step});
  return Step::Jumped;
}

Step Machine::enterIf(Operation *op, Instance &inst) {
  auto branch = cast<scf::IfOp>(op);
  bool condition = get(inst, branch.getCondition()) & 1;
  Region &region = condition ? branch.getThenRegion() : branch.getElseRegion();
  ++inst.frames.back().next;
  if (region.empty())
    return Step::Jumped; // no else: no results either
  Block *block = &region.front();
  inst.frames.push_back(Frame{block, block->begin(), op});
  return Step::Jumped;
}

Step Machine::yield(Operation *op, Instance &inst) {
  SmallVector<Scalar, 4> values;
  for (Value operand : op->getOperands())
    values.push_back(inst.values.find(operand)->second);
  Frame &frame = inst.frames.back();
  if (auto loop = dyn_cast<scf::ForOp>(frame.owner)) {
    frame.iv += frame.step;
    if (frame.iv < frame.upper) {
      inst.values[loop.getInductionVar()].i = frame.iv;
      bindArguments(inst, frame.block, 1, values);
      frame.next = frame.block->begin();
      return Step::Jumped;
    }
    for (auto [result, value] : llvm::zip(loop.getResults(), values))
      inst.values[result] = value;
    inst.frames.pop_back();
    return Step::Jumped;
  }
  for (auto [result, value] : llvm::zip(frame.owner->getResults(), values))
    inst.values[result] = value;
  inst.frames.pop_back();
  return Step::Jumped;
}
