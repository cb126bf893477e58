//===- ExpressionText.cpp - Elementwise steps as dialect text -------------===//
//
// Writes the steps of an Expression (Expression.cpp) as tile ops: loads are
// unpacks, emitted when their slot is first read, so that a binary op of a
// tile and a column-broadcast one is one tile.binary reading both buffers;
// binary steps are binary_dst, unary and scalar steps the vector engine's
// in-place ops, and a copy is binary_dst max of the slot with itself.
//
//===----------------------------------------------------------------------===//
#include "KernelText.h"
#include "Programs.h"

#include <map>

using namespace strata::tile;

/// Whether a step after step `i`, or the packing of the result, reads
/// `slot` before a step writes it.
static bool readAfter(const Expression &expr, size_t i, int slot) {
  for (size_t j = i + 1; j < expr.steps.size(); ++j) {
    const Expression::Step &step = expr.steps[j];
    switch (step.kind) {
    case Expression::Step::Load:
      if (step.slot == slot)
        return false;
      break;
    case Expression::Step::Where:
      if (step.lhs == slot || step.rhs == slot || step.third == slot)
        return true;
      if (step.slot == slot)
        return false;
      break;
    case Expression::Step::Binary:
    case Expression::Step::Copy:
      if (step.lhs == slot ||
          (step.kind == Expression::Step::Binary && step.rhs == slot))
        return true;
      if (step.slot == slot)
        return false;
      break;
    case Expression::Step::Unary:
    case Expression::Step::Scalar:
      if (step.slot == slot)
        return true;
      break;
    }
  }
  return expr.result == slot;
}

llvm::Error strata::tile::emitExpression(
    KernelText &k, const Expression &expr,
    const std::vector<std::string> &buffers,
    const std::vector<std::string> &tiles, const std::string &base,
    const std::vector<bool> &broadcast, const std::vector<bool> &transposed) {
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
  auto isTransposed = [&](int operand) {
    return size_t(operand) < transposed.size() && transposed[operand];
  };
  auto use = [&](int slot) -> llvm::Error {
    auto it = pending.find(slot);
    if (it == pending.end())
      return llvm::Error::success();
    // A vector operand in Dst: the unpacker broadcasts its column 0.
    // A transposed operand: the unpacker swaps the tile's rows and columns.
    k.line(llvm::formatv("tile.unpack_tile @{0}[{1}] -> dst[{2}]{3}",
                         buffers[it->second], tiles[it->second], dst(slot),
                         isBroadcast(it->second)    ? " bcast col"
                         : isTransposed(it->second) ? " transpose"
                                                    : ""));
    pending.erase(it);
    return llvm::Error::success();
  };
  for (size_t i = 0; i < expr.steps.size(); ++i) {
    const Expression::Step &step = expr.steps[i];
    switch (step.kind) {
    case Expression::Step::Load:
      pending[step.slot] = step.operand;
      break;
    case Expression::Step::Binary: {
      // Reading both operands from their buffers leaves their slots
      // unwritten: only when no later step reads them.
      // (The matrix engine's eltwise form adds, subtracts, multiplies and
      // takes max and min; anything else, a comparison, is the vector
      // engine's.)
      bool eltwiseForm = llvm::is_contained(
          llvm::ArrayRef<llvm::StringRef>{"add", "sub", "mul", "max", "min"},
          llvm::StringRef(step.op));
      auto lhs = pending.find(step.lhs), rhs = pending.find(step.rhs);
      if (eltwiseForm && lhs != pending.end() && rhs != pending.end() &&
          !isBroadcast(lhs->second) && isBroadcast(rhs->second) &&
          !isTransposed(lhs->second) &&
          (step.lhs == step.slot || !readAfter(expr, i, step.lhs)) &&
          (step.rhs == step.slot || !readAfter(expr, i, step.rhs))) {
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
    case Expression::Step::Where:
      for (int slot : {step.lhs, step.rhs, step.third})
        if (llvm::Error error = use(slot))
          return error;
      k.line(llvm::formatv(
          "tile.where_dst dst[{0}], dst[{1}], dst[{2}] -> dst[{3}]",
          dst(step.lhs), dst(step.rhs), dst(step.third), dst(step.slot)));
      break;
    case Expression::Step::Copy:
      // The dialect has no Dst-to-Dst move: max(x, x) is x exactly, at the
      // vector engine's cost of a max.
      if (llvm::Error error = use(step.lhs))
        return error;
      k.line(llvm::formatv("tile.binary_dst max dst[{0}], dst[{0}] -> dst[{1}]",
                           dst(step.lhs), dst(step.slot)));
      break;
    case Expression::Step::Unary:
      if (llvm::Error error = use(step.slot))
        return error;
      k.line(llvm::formatv("tile.unary {0} dst[{1}]", step.op, dst(step.slot)));
      break;
    case Expression::Step::Scalar: {
      if (llvm::Error error = use(step.slot))
        return error;
      k.line(llvm::formatv("tile.unary_scalar {0} dst[{1}], {2}", step.op,
                           dst(step.slot), f32Immediate(step.scalar)));
      break;
    }
    }
  }
  return use(expr.result);
}
