//===- HierarchyRowChain.cpp - Row-wise chains in one kernel --------------===//
//
// softmax on buffers is fill, max, exp(x - max), fill, sum, 1 / sum, and a
// product; layernorm is fill, sum, mean, fill, squared deviations, rstd and
// the normalization. Run op after op, each is a kernel that rereads the
// rows; run row after row, one group of lanes does all of a row's work:
//
//   scf.forall blocks / groups / lanes     one row per group (as reductions)
//     if row < rows:                       the same for all of a group
//       fill:      v[buf] = c                               (lane 0 stores)
//       reduction: p = fold of the lane's elements; p = butterfly(p);
//                  v[out] = combine(v[out] or out[row], p)  (lane 0 stores)
//       row op:    v[out] = body(v[...] or loads)           (lane 0 stores)
//       element:   for e = lane; e < len; e += lanes: out[row, e] = body(...)
//
// (with 16-byte accesses where the rows allow them: e = 4 x lane, step
// 4 x lanes, 4 elements per vector load and store; vectorWidth).
//
// where v maps the row buffers the chain wrote to this row's value, kept in
// registers (every lane holds it: the butterfly leaves the total in each).
// An element op's elements are owned by the lane that the reductions and
// the other element ops give them (the same stride), so a lane rereads only
// what it wrote itself: no barrier is needed. matchRowChain admits only
// accesses that stay in the row (see the header), so the row-by-row order
// computes what the op-by-op order does.
//
//===----------------------------------------------------------------------===//
#include "HierarchyRowChain.h"
#include "HierarchyContraction.h"
#include "HierarchyKernel.h"
#include "HierarchyReduction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace strata;
using namespace strata::hierarchy;

namespace {
enum class Kind { Fill, Reduction, Row, Element };

/// `map` is (d0, ..., d{n-1}).
bool leadingIdentity(AffineMap map, unsigned n) {
  if (map.getNumResults() != n)
    return false;
  for (unsigned i = 0; i < n; ++i) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(i));
    if (!dim || dim.getPosition() != i)
      return false;
  }
  return true;
}

/// What `op` is in a chain over rows `rows` (extents of the P row loops)
/// and row elements `cols`; both empty: `op` may start a chain, and sets
/// them.
std::optional<Kind> kindOf(linalg::LinalgOp op, SmallVector<int64_t> &rows,
                           SmallVector<int64_t> &cols) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      !isa<MemRefType>(op.getDpsInitOperand(0)->get().getType()))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (isa<linalg::FillOp>(op)) {
    // A chain may start with the fill of its first reduction's output.
    if (rows.empty())
      rows = ranges;
    if (ranges != rows)
      return std::nullopt;
    return Kind::Fill;
  }
  if (isRowReduction(op)) {
    // Row loops first, then only reduction loops.
    SmallVector<utils::IteratorType> its = op.getIteratorTypesArray();
    unsigned p = out.getNumResults();
    if (!leadingIdentity(out, p) || p == 0)
      return std::nullopt;
    for (unsigned i = p; i < its.size(); ++i)
      if (its[i] != utils::IteratorType::reduction)
        return std::nullopt;
    SmallVector<int64_t> r(ranges.begin(), ranges.begin() + p),
        c(ranges.begin() + p, ranges.end());
    if (rows.empty())
      rows = r;
    if (cols.empty() && r == rows)
      cols = c; // the first reduction sets the row's elements
    if (r != rows || c != cols)
      return std::nullopt;
    return Kind::Reduction;
  }
  if (!allParallel(op) || rows.empty() ||
      !leadingIdentity(out, op.getNumLoops()))
    return std::nullopt;
  if (ranges == rows)
    return Kind::Row;
  SmallVector<int64_t> element(rows);
  element.append(cols);
  if (!cols.empty() && ranges == element)
    return Kind::Element;
  return std::nullopt;
}

/// Buffers the chain can reason about: allocations and arguments (no
/// views that could alias another buffer).
bool plainBuffer(Value v) {
  return isa<BlockArgument>(v) || v.getDefiningOp<memref::AllocOp>();
}

/// Every access of `op` to a buffer in `written` stays in the row: a row
/// buffer at the row's element, an element buffer at the op's own element.
bool staysInRow(linalg::LinalgOp op, Kind kind, unsigned p,
                const llvm::DenseSet<Value> &written) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value buffer = operand.get();
    if (!isa<MemRefType>(buffer.getType()))
      continue;
    if (!plainBuffer(buffer))
      return false;
    if (!written.contains(buffer))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool rowValue = leadingIdentity(map, p);
    bool element = (kind == Kind::Element || kind == Kind::Reduction) &&
                   leadingIdentity(map, op.getNumLoops());
    if (!rowValue && !element)
      return false;
  }
  return true;
}
/// Whether `op` reads or writes `operand` along the row's innermost loop
/// `inner` as the innermost index and nowhere else: consecutive elements
/// of the row are consecutive in memory there.
bool contiguous(linalg::LinalgOp op, OpOperand *operand, unsigned inner) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  if (map.getNumResults() == 0)
    return false;
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!last || last.getPosition() != inner)
    return false;
  for (AffineExpr e : map.getResults().drop_back())
    if (e.isFunctionOfDim(inner))
      return false;
  return true;
}

/// Elements a lane takes at a time: 4 (one 16-byte access of f32) when
/// every access along the rows' innermost loop is contiguous, in buffers
/// whose rows are multiples of 4 elements (so that the accesses stay
/// aligned), and the innermost extent is one too; 1 otherwise.
int64_t vectorWidth(const RowChain &chain) {
  constexpr int64_t width = 4;
  unsigned p = chain.rowExtents.size();
  if (chain.colExtents.empty() || chain.colExtents.back() % width != 0)
    return 1;
  unsigned inner = p + chain.colExtents.size() - 1;
  for (linalg::LinalgOp op : chain.ops) {
    if (op.getNumLoops() == p)
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type)
        continue;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      if (!map.isFunctionOfDim(inner))
        continue;
      if (!contiguous(op, &operand, inner) || !type.hasStaticShape() ||
          !type.getLayout().isIdentity() || type.getShape().back() % width != 0)
        return 1;
    }
  }
  return width;
}
} // namespace

std::optional<RowChain>
hierarchy::matchRowChain(linalg::LinalgOp start,
                         const llvm::DenseSet<Operation *> &excluded) {
  RowChain chain;
  SmallVector<Kind> kinds;
  // Consecutive candidates; allocations, constants and deallocations of
  // other buffers may lie between them.
  for (Operation *op = start; op; op = op->getNextNode()) {
    if (isa<memref::AllocOp, arith::ConstantOp>(op))
      continue;
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
      bool used = llvm::any_of(chain.ops, [&](linalg::LinalgOp c) {
        return llvm::is_contained(c->getOperands(), dealloc.getMemref());
      });
      if (used)
        break;
      continue;
    }
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || excluded.contains(op))
      break;
    std::optional<Kind> kind =
        kindOf(linalgOp, chain.rowExtents, chain.colExtents);
    if (!kind)
      break;
    chain.ops.push_back(linalgOp);
    kinds.push_back(*kind);
  }
  // The longest prefix whose accesses to what it writes stay in the rows.
  unsigned p = chain.rowExtents.size();
  while (!chain.ops.empty()) {
    llvm::DenseSet<Value> written;
    for (linalg::LinalgOp op : chain.ops)
      written.insert(op.getDpsInitOperand(0)->get());
    unsigned bad = chain.ops.size();
    for (unsigned i = 0; i < chain.ops.size() && bad == chain.ops.size(); ++i)
      if (!staysInRow(chain.ops[i], kinds[i], p, written))
        bad = i;
    if (bad == chain.ops.size())
      break;
    chain.ops.resize(bad);
    kinds.resize(bad);
  }
  // Trailing fills would only be stores of constants.
  while (!kinds.empty() && kinds.back() == Kind::Fill)
    chain.ops.pop_back(), kinds.pop_back();
  // A reduction with its fill alone is a plain reduction (HierarchyReduction).
  if (llvm::count_if(kinds, [](Kind k) { return k != Kind::Fill; }) < 2 ||
      !llvm::is_contained(kinds, Kind::Reduction))
    return std::nullopt;
  return chain;
}

LogicalResult hierarchy::emitRowChain(ImplicitLocOpBuilder &b,
                                      const RowChain &chain,
                                      const HierarchyLevels &levels) {
  unsigned p = chain.rowExtents.size();
  int64_t rows = 1, length = 1;
  for (int64_t e : chain.rowExtents)
    rows *= e;
  for (int64_t e : chain.colExtents)
    length *= e;
  for (linalg::LinalgOp op : chain.ops)
    if (Operation *comb = combiner(op); comb && !allParallel(op)) {
      Type t = comb->getResult(0).getType();
      if (!t.isIntOrFloat() || t.getIntOrFloatBitWidth() > 32)
        return op->emitError("strata-map-hierarchy: reductions of ")
               << t << " are not mapped yet (32 bits at most)";
      if (!arith::getNeutralElement(comb))
        return op->emitError("strata-map-hierarchy: the reduction's "
                             "combining op has no neutral element");
    }
  if (!llvm::isPowerOf2_64(levels.lanes))
    return chain.ops.front()->emitError(
               "strata-map-hierarchy: reductions need a power of two '")
           << levels.lane << "'s per '" << levels.group << "'";
  RowSchedule rs = chooseRowSchedule(rows, levels);
  HierarchySchedule s;
  s.levels = levels;
  s.groupsM = rs.groupsPerBlock;
  KernelBuilder k(b, s);
  SmallVector<unsigned> rowDims, colDims;
  for (unsigned i = 0; i < p; ++i)
    rowDims.push_back(i);
  for (unsigned i = 0; i < chain.colExtents.size(); ++i)
    colDims.push_back(p + i);
  SmallVector<int64_t> extents(chain.rowExtents);
  extents.append(chain.colExtents);
  int64_t width = vectorWidth(chain);
  unsigned innermost = extents.size() - 1;
  auto bytesOf = [](Type t) {
    return int64_t(llvm::divideCeil(t.getIntOrFloatBitWidth(), 8));
  };

  auto kernel = k.forall(levels.block, {rs.blocks}, [&](ValueRange ids) {
    k.forall(levels.group, {rs.groupsPerBlock}, [&](ValueRange g) {
      k.forall(levels.lane, {levels.lanes}, [&](ValueRange l) {
        Value lane = l[0];
        Value row = k.add(k.mul(ids[0], rs.groupsPerBlock), g[0]);
        OpBuilder::InsertionGuard guard(b);
        if (rows != rs.blocks * rs.groupsPerBlock) { // (no rows: none runs)
          // Uniform over the group: its shuffles see all its lanes.
          auto ifOp = scf::IfOp::create(b, k.lt(row, k.idx(rows)));
          b.setInsertionPointToStart(ifOp.thenBlock());
        }
        SmallVector<Value> rowLoops(p);
        delinearize(k, row, rowDims, extents, rowLoops);
        Value first =
            arith::CmpIOp::create(b, arith::CmpIPredicate::eq, lane, k.idx(0));
        // This row's value of each row buffer the chain wrote so far.
        llvm::DenseMap<Value, Value> known;
        auto operandValue = [&](linalg::LinalgOp op, OpOperand *operand,
                                ArrayRef<Value> loops) -> Value {
          auto it = known.find(operand->get());
          if (it != known.end() &&
              leadingIdentity(op.getMatchingIndexingMap(operand), p))
            return it->second;
          return k.load(op, operand, loops);
        };
        // Lane 0 stores `v` as the row's element of row buffer `out`.
        auto storeRow = [&](linalg::LinalgOp op, Value v) {
          OpOperand *out = op.getDpsInitOperand(0);
          known[out->get()] = v;
          OpBuilder::InsertionGuard g2(b);
          auto ifOp = scf::IfOp::create(b, first);
          b.setInsertionPointToStart(ifOp.thenBlock());
          memref::StoreOp::create(
              b, v, out->get(),
              k.indices(op.getMatchingIndexingMap(out), rowLoops));
        };
        // The body of `op` at `loops`, `acc` for the output's argument
        // when given; the yielded values.
        // `value`, when given, supplies the operands it returns non-null
        // for (elements of a vector the lane loaded).
        auto body = [&](linalg::LinalgOp op, ArrayRef<Value> loops, Value acc,
                        function_ref<Value(OpOperand *)> value =
                            nullptr) -> SmallVector<Value> {
          IRMapping map;
          Block *block = op.getBlock();
          for (OpOperand &operand : op->getOpOperands()) {
            Value arg = block->getArgument(operand.getOperandNumber());
            Value given = value ? value(&operand) : Value();
            if (acc && op.isDpsInit(&operand))
              map.map(arg, acc);
            else if (!arg.use_empty())
              map.map(arg, given ? given : operandValue(op, &operand, loops));
          }
          for (Operation &inner : block->without_terminator()) {
            if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
              map.map(index.getResult(), loops[index.getDim()]);
              continue;
            }
            b.clone(inner, map);
          }
          SmallVector<Value> out;
          for (Value v : block->getTerminator()->getOperands())
            out.push_back(map.lookupOrDefault(v));
          return out;
        };
        for (linalg::LinalgOp op : chain.ops) {
          if (op.getNumLoops() == p) { // one value per row (fills too)
            storeRow(op, body(op, rowLoops, Value())[0]);
            continue;
          }
          Operation *comb = allParallel(op) ? nullptr : combiner(op);
          Value init;
          if (comb)
            init =
                arith::ConstantOp::create(b, *arith::getNeutralElement(comb));
          // The lane's elements of the row, `width` consecutive ones at a
          // time: contiguous operands move as one vector each, the body
          // runs on its elements in order.
          auto loop = scf::ForOp::create(
              b, k.mul(lane, width), k.idx(length), k.idx(levels.lanes * width),
              comb ? ValueRange{init} : ValueRange());
          {
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(loop.getBody());
            SmallVector<Value> loops(rowLoops);
            loops.resize(extents.size());
            delinearize(k, loop.getInductionVar(), colDims, extents, loops);
            llvm::DenseMap<OpOperand *, Value> vectors;
            auto vectorOf = [&](OpOperand *operand) -> Value {
              if (width == 1 || !contiguous(op, operand, innermost))
                return Value();
              Value &v = vectors[operand];
              if (!v) {
                Type elem = getElementTypeOrSelf(operand->get().getType());
                v = vector::LoadOp::create(
                    b, VectorType::get({width}, elem), operand->get(),
                    k.indices(op.getMatchingIndexingMap(operand), loops), false,
                    llvm::MaybeAlign(width * bytesOf(elem)));
              }
              return v;
            };
            Value acc = comb ? loop.getRegionIterArgs()[0] : Value();
            SmallVector<Value> results;
            for (int64_t j = 0; j < width; ++j) {
              SmallVector<Value> at(loops);
              if (j > 0)
                at[innermost] = k.add(at[innermost], k.idx(j));
              auto element = [&](OpOperand *operand) -> Value {
                if (op.isDpsInit(operand) && comb)
                  return Value();
                Value v = vectorOf(operand);
                return v ? vector::ExtractOp::create(b, v, ArrayRef<int64_t>{j})
                               .getResult()
                         : Value();
              };
              Value r = body(op, at, acc, element)[0];
              if (comb)
                acc = r;
              else
                results.push_back(r);
            }
            OpOperand *out = op.getDpsInitOperand(0);
            AffineMap outMap = op.getMatchingIndexingMap(out);
            if (comb) {
              scf::YieldOp::create(b, acc);
            } else if (width == 1) {
              memref::StoreOp::create(b, results[0], out->get(),
                                      k.indices(outMap, loops));
            } else {
              Type elem = getElementTypeOrSelf(out->get().getType());
              Value v = vector::FromElementsOp::create(
                  b, VectorType::get({width}, elem), results);
              vector::StoreOp::create(b, v, out->get(),
                                      k.indices(outMap, loops), false,
                                      llvm::MaybeAlign(width * bytesOf(elem)));
            }
          }
          if (!comb)
            continue;
          Value total = groupReduce(b, comb, loop.getResult(0), levels.lanes);
          OpOperand *out = op.getDpsInitOperand(0);
          Value old = operandValue(op, out, rowLoops);
          storeRow(op, combine(b, comb, old, total));
        }
      });
    });
  });
  SmallVector<std::string> names;
  for (linalg::LinalgOp op : chain.ops)
    names.push_back(op->getName().getStringRef().str());
  setHierarchySchedule(kernel, {{"row_chain", names},
                                {"rows", {rows, length}},
                                {"groups", {levels.group, rs.groupsPerBlock}},
                                {"vector", width},
                                {"grid", {rs.blocks}}});
  return success();
}
