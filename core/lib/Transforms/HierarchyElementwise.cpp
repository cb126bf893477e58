//===- HierarchyElementwise.cpp - Elementwise ops over the levels ---------===//
#include "HierarchyKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

/// An elementwise op: one element per lane, blocks of all the groups.
LogicalResult hierarchy::emitElementwise(ImplicitLocOpBuilder &b,
                                         linalg::LinalgOp op,
                                         const HierarchyLevels &levels) {
  SmallVector<int64_t> extents = op.getStaticLoopRanges();
  int64_t total = 1;
  for (int64_t e : extents) {
    if (ShapedType::isDynamic(e))
      return op->emitError("strata-map-hierarchy: dynamic extents are not "
                           "mapped to compute levels yet");
    total *= e;
  }
  HierarchySchedule s;
  s.levels = levels;
  int64_t groups = 1;
  while (groups * 2 <= levels.groups)
    groups *= 2;
  s.groupsM = groups;
  KernelBuilder k(b, s);
  int64_t perBlock = groups * levels.lanes;
  int64_t blocks =
      std::max<int64_t>(llvm::divideCeilSigned(total, perBlock), 1);
  auto kernel = k.forall(levels.block, {blocks}, [&](ValueRange ids) {
    k.forall(levels.group, {groups}, [&](ValueRange g) {
      k.forall(levels.lane, {levels.lanes}, [&](ValueRange l) {
        Value e = k.add(k.mul(k.add(k.mul(ids[0], groups), g[0]), levels.lanes),
                        l[0]);
        auto ifOp = scf::IfOp::create(b, k.lt(e, k.idx(total)));
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifOp.thenBlock());
        // Row-major loop values of element e.
        SmallVector<Value> loops(extents.size());
        Value rest = e;
        for (int64_t d = int64_t(extents.size()) - 1; d >= 0; --d) {
          loops[d] = d == 0 ? rest : k.rem(rest, extents[d]);
          if (d > 0)
            rest = k.div(rest, extents[d]);
        }
        k.applyBody(op, loops, Value(), Value());
      });
    });
  });
  setHierarchySchedule(
      kernel,
      {{"elementwise", total}, {"lanes", perBlock}, {"grid", {blocks}}});
  return success();
}
