//===- GridVersions.cpp - Static versions of a grid loop's parts ----------===//
//
// Parts of a grid run in parallel, so a partial last part cannot be peeled
// off the loop as a sequential loop's last tile is. Left alone, its extent
// is dynamic in the one shared body: every cache tile of every part gets
// dynamic shapes, and S4 pads them, copying operands and outputs into
// padded buffers once per k tile. Versioning the body on the part's size
// gives both kinds of part static shapes; each thread runs one version.
//
//===----------------------------------------------------------------------===//
#include "strata/Transforms/GridVersions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

FailureOr<std::pair<Operation *, Operation *>>
strata::versionLastPart(RewriterBase &rw, scf::ForallOp forall,
                        Operation *tiled, int64_t full, int64_t last) {
  Block &body = forall.getRegion().front();
  if (tiled->getBlock() != &body)
    return failure();
  // The part's size: the one affine.min of the induction variables.
  affine::AffineMinOp size;
  for (auto min : body.getOps<affine::AffineMinOp>()) {
    bool ofIvs = llvm::any_of(min.getOperands(), [&](Value v) {
      return llvm::is_contained(forall.getInductionVars(), v);
    });
    if (!ofIvs)
      continue;
    if (size)
      return failure(); // several partial loops: left alone
    size = min;
  }
  if (!size || llvm::any_of(size.getOperands(), [&](Value v) {
        return v.getParentBlock() == &body &&
               !llvm::is_contained(forall.getInductionVars(), v);
      }))
    return failure();
  Operation *terminator = body.getTerminator();
  rw.moveOpBefore(size, &body.front());
  // Slices of the shared outputs stay before the versions: both versions
  // then write into the same tile, which bufferizes in place (a version's
  // own slice would be a different buffer, copied into the output).
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(op);
    if (&op == size.getOperation() ||
        (slice &&
         llvm::is_contained(forall.getRegionIterArgs(), slice.getSource())))
      continue;
    ops.push_back(&op);
  }
  // Values of the body the terminator inserts into the shared outputs.
  llvm::SetVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      for (OpOperand &use : result.getUses())
        if (terminator->isAncestor(use.getOwner()))
          escaping.insert(result);
  Location loc = forall.getLoc();
  rw.setInsertionPoint(terminator);
  Value isFull =
      arith::CmpIOp::create(rw, loc, arith::CmpIPredicate::eq, size.getResult(),
                            arith::ConstantIndexOp::create(rw, loc, full));
  SmallVector<Type> types;
  for (Value v : escaping)
    types.push_back(v.getType());
  auto ifOp = scf::IfOp::create(rw, loc, types, isFull,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  Block *thenBlock = ifOp.thenBlock(), *elseBlock = ifOp.elseBlock();
  for (Operation *op : ops)
    rw.moveOpBefore(op, thenBlock, thenBlock->end());
  rw.setInsertionPointToEnd(thenBlock);
  scf::YieldOp::create(rw, loc, escaping.getArrayRef());
  IRMapping map;
  rw.setInsertionPointToEnd(elseBlock);
  for (Operation *op : ops)
    rw.clone(*op, map);
  SmallVector<Value> mapped;
  for (Value v : escaping)
    mapped.push_back(map.lookup(v));
  scf::YieldOp::create(rw, loc, mapped);
  for (auto [v, result] : llvm::zip(escaping, ifOp.getResults()))
    rw.replaceUsesWithIf(v, result, [&](OpOperand &use) {
      return terminator->isAncestor(use.getOwner());
    });
  // Each version sees its size as a constant.
  for (auto [block, extent] :
       {std::pair<Block *, int64_t>{thenBlock, full}, {elseBlock, last}}) {
    rw.setInsertionPointToStart(block);
    Value constant = arith::ConstantIndexOp::create(rw, loc, extent);
    Region *region = block->getParent();
    rw.replaceUsesWithIf(size.getResult(), constant, [&](OpOperand &use) {
      return region->isAncestor(use.getOwner()->getParentRegion());
    });
  }
  return std::make_pair(tiled, map.lookup(tiled));
}
