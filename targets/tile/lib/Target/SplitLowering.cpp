//===- SplitLowering.cpp - A function as a sequence of tile programs ------===//
//
// A function that none of the one-program shapes covers (attention: a
// transpose, a batch matmul and its scale, a softmax, another batch
// matmul) is cut at op boundaries into groups, each one of those shapes: a
// zero fill with its product and an optional elementwise epilogue, a
// transpose, a run of row reductions and passes, a lone elementwise op, a
// copy from or into a strided view (declaring the view's whole buffer).
// Each group becomes a function of its own whose arguments are the DRAM
// tensors of its program: the function's arguments it uses and the buffers
// it shares with other groups, which become scratch tensors in DRAM. The
// runtime runs the programs in order (LowerToTile.cpp marks them).
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"

#include <functional>

using namespace mlir;
using namespace strata;
using namespace strata::tile;

namespace {
bool isProduct(Operation *op) {
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::Conv2DNhwcHwcfOp>(
      op);
}

/// A copy of one input through a permutation other than the identity (a
/// transpose): a program of its own, since its reads are not a row's.
bool isPermutedCopy(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumReductionLoops() != 0)
    return false;
  AffineMap map = generic.getMatchingIndexingMap(generic.getDpsInputOperand(0));
  return map.isPermutation() && !map.isIdentity();
}

/// The buffer a reshaped view (an expand or collapse of a contiguous
/// buffer) stands for. The runtime keeps tensors between programs in the
/// host's row-major order, where a reshape moves nothing: a view and its
/// buffer are one DRAM tensor, each program declaring it in its own shape.
/// A strided view (a subview) is part of its buffer as well.
Value rootOf(Value v) { return bufferOf(v); }

bool isReshape(Operation &op) {
  return isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(op);
}

/// What a copy program declares of a view it reads or writes: the whole
/// buffer when a subview cuts the view (its layout says where in the
/// buffer the view lies), else the view in its own shape.
Value withoutSubviews(Value v) { return isStridedView(v) ? rootOf(v) : v; }

/// A copy from or into a strided view: a program of its own.
bool isViewCopy(Operation *op) {
  auto copy = dyn_cast<memref::CopyOp>(op);
  return copy &&
         (isStridedView(copy.getSource()) || isStridedView(copy.getTarget()));
}

/// A zero fill waits until the op before the first other use of its
/// buffer: a transpose cut between them would make the fill a program of
/// its own, and its reader an update of a tensor read from DRAM.
void delayFills(SmallVectorImpl<Operation *> &ops) {
  for (size_t i = ops.size(); i-- > 0;) {
    auto fill = dyn_cast<linalg::FillOp>(ops[i]);
    if (!fill || !fill.hasPureBufferSemantics())
      continue;
    Value buffer = rootOf(fill.getDpsInits()[0]);
    size_t j = i + 1;
    while (j < ops.size() && llvm::none_of(ops[j]->getOperands(), [&](Value v) {
             return rootOf(v) == buffer;
           }))
      ++j;
    if (j == ops.size() || j == i + 1)
      continue;
    Operation *moved = ops[i];
    ops.erase(ops.begin() + i);
    ops.insert(ops.begin() + (j - 1), moved);
  }
}

bool reduces(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumReductionLoops() > 0;
}

/// What `op` reads and writes of the buffers: inputs (and outputs whose
/// old contents its body uses) are read, outputs written. A copy into a
/// strided view writes part of its buffer (`partial`): the rest keeps what
/// the programs before left there.
void accesses(Operation *op, SmallVectorImpl<Value> &reads,
              SmallVectorImpl<Value> &writes,
              SmallVectorImpl<Value> *partial = nullptr) {
  if (auto copy = dyn_cast<memref::CopyOp>(op)) {
    reads.push_back(withoutSubviews(copy.getSource()));
    writes.push_back(withoutSubviews(copy.getTarget()));
    if (partial && writes.back() != copy.getTarget())
      partial->push_back(writes.back());
    return;
  }
  auto linalgOp = cast<linalg::LinalgOp>(op);
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (isa<MemRefType>(input->get().getType()))
      reads.push_back(input->get());
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    if (linalgOp.payloadUsesValueFromOperand(&init))
      reads.push_back(init.get());
    writes.push_back(init.get());
  }
}
} // namespace

SmallVector<SmallVector<Operation *>>
strata::tile::programGroups(func::FuncOp fn, bool paddingInPlace) {
  SmallVector<Operation *> ops;
  for (Operation &op : fn.getBody().front()) {
    if (paddingInPlace && isPaddingOp(&op))
      continue; // a convolution's reader pads
    if (isa<linalg::LinalgOp, memref::CopyOp>(op))
      ops.push_back(&op);
    else if (!isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp,
                  arith::ConstantOp, memref::GetGlobalOp>(op) &&
             !isViewOp(&op))
      return {}; // no program takes it: the one-program lowering names it
  }
  delayFills(ops);
  SmallVector<SmallVector<Operation *>> groups;
  // Row reductions and passes between products and transposes: one row
  // program when the run reduces, else one program per elementwise op.
  // A row program writes only its last result: a run is cut after the
  // last writer of a function output that later ops of the run read too
  // (a softmax returned and softmaxed again).
  SmallVector<Operation *> run;
  auto emit = [&](ArrayRef<Operation *> part) {
    if (llvm::any_of(part, reduces))
      groups.push_back(SmallVector<Operation *>(part));
    else
      for (Operation *op : part)
        groups.push_back({op});
  };
  // So is a run cut after the last writer of a buffer that an op after
  // the run reads (a softmax's exponentials read by a later op of another
  // shape): that program writes it.
  auto flush = [&] {
    size_t start = 0;
    auto end = run.empty() ? ops.end() : std::next(llvm::find(ops, run.back()));
    auto readAfterRun = [&](Value out) {
      return std::any_of(end, ops.end(), [&](Operation *later) {
        return llvm::any_of(later->getOperands(), [&](Value v) {
          return isa<MemRefType>(v.getType()) && rootOf(v) == rootOf(out);
        });
      });
    };
    for (size_t j = 0; j < run.size(); ++j) {
      auto op = dyn_cast<linalg::LinalgOp>(run[j]);
      if (!op || op.getNumDpsInits() != 1 || isa<linalg::FillOp>(run[j]))
        continue;
      Value out = op.getDpsInits()[0];
      bool argument = isa<BlockArgument>(out), after = readAfterRun(out);
      if (!argument && !after)
        continue;
      ArrayRef<Operation *> rest = ArrayRef<Operation *>(run).drop_front(j + 1);
      // Cut after the output's last writer (ops may update it in place).
      bool readLater = llvm::any_of(rest, [&](Operation *later) {
        return llvm::is_contained(later->getOperands(), out);
      });
      bool writtenLater = llvm::any_of(rest, [&](Operation *later) {
        auto l = dyn_cast<linalg::LinalgOp>(later);
        return l && llvm::is_contained(l.getDpsInits(), out);
      });
      if ((readLater || after) && !writtenLater) {
        emit(ArrayRef<Operation *>(run).slice(start, j + 1 - start));
        start = j + 1;
      }
    }
    emit(ArrayRef<Operation *>(run).drop_front(start));
    run.clear();
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    auto fill = dyn_cast<linalg::FillOp>(ops[i]);
    if (fill && i + 1 < ops.size() && isProduct(ops[i + 1]) &&
        cast<linalg::LinalgOp>(ops[i + 1]).getDpsInits()[0] ==
            fill.getDpsInits()[0]) {
      flush();
      Value product = fill.getDpsInits()[0];
      SmallVector<Operation *> group{ops[i], ops[i + 1]};
      ++i;
      // An elementwise op reading the product first is its epilogue, when
      // nothing else reads the product: the program keeps it in Dst and
      // writes only the epilogue's result (a product also returned or read
      // later is written by its own program).
      auto epilogue = i + 1 < ops.size()
                          ? dyn_cast<linalg::GenericOp>(ops[i + 1])
                          : linalg::GenericOp();
      // An epilogue writing its result over the product leaves nothing
      // else to read.
      // The product program's epilogue reads vectors broadcast along its
      // rows (a bias) besides the product; one that reads a matrix (a
      // residual) is an elementwise program of its own.
      auto readsBiasesOnly = [&](linalg::GenericOp reader) {
        return llvm::all_of(reader.getDpsInputOperands(), [&](OpOperand *in) {
          return in->getOperandNumber() == 0 || isRowBroadcast(reader, *in);
        });
      };
      // The product's buffer is looked at through all of its views: a
      // product written into a reshape of a function output is returned
      // (seed 33 case 2: "no program of @case writes its output #1").
      auto onlyReader = [&](linalg::GenericOp reader) {
        if (llvm::is_contained(reader.getDpsInits(), product))
          return true;
        Value buffer = bufferOf(product);
        if (isa<BlockArgument>(buffer))
          return false;
        SmallVector<Value> views{buffer};
        while (!views.empty()) {
          Value view = views.pop_back_val();
          for (Operation *user : view.getUsers()) {
            if (user == ops[i - 1] || user == ops[i] || user == reader ||
                isa<memref::DeallocOp>(user))
              continue;
            if (!isViewOp(user))
              return false;
            views.push_back(user->getResult(0));
          }
        }
        return true;
      };
      if (epilogue && epilogue.getNumReductionLoops() == 0 &&
          epilogue.getNumDpsInputs() > 0 &&
          epilogue.getDpsInputs()[0] == product &&
          epilogue.getMatchingIndexingMap(epilogue.getDpsInputOperand(0))
              .isIdentity() &&
          readsBiasesOnly(epilogue) && onlyReader(epilogue)) {
        group.push_back(epilogue);
        ++i;
      }
      groups.push_back(group);
      continue;
    }
    if (isProduct(ops[i]) || isPermutedCopy(ops[i]) || isViewCopy(ops[i])) {
      flush();
      groups.push_back({ops[i]});
      continue;
    }
    // A row program runs over one shape: a reduction over another shape
    // (of a reduction's results: the next step of a reduction over
    // several loops) starts a program of its own.
    auto shapeOf = [](Operation *op) {
      return cast<linalg::LinalgOp>(op).getStaticLoopRanges();
    };
    // Nor does it take an op over neither its rows nor its columns (a 1-D
    // product before the reduction of its [1, n] view: a dot product's).
    // A per-row (column) op reads only vectors the program made itself.
    auto madeInRun = [&](Value v) {
      return llvm::any_of(run, [&](Operation *earlier) {
        auto l = dyn_cast<linalg::LinalgOp>(earlier);
        return l && llvm::any_of(l.getDpsInits(), [&](Value init) {
                 return rootOf(init) == rootOf(v);
               });
      });
    };
    auto rowShaped = [&](Operation *op, ArrayRef<int64_t> rows) {
      if (isa<linalg::FillOp>(op) || !isa<linalg::LinalgOp>(op))
        return true;
      SmallVector<int64_t> shape = shapeOf(op);
      // Whole, per row or per column: a row program's reads (a transposed
      // one is a program of its own).
      auto rowRead = [&](OpOperand *operand) {
        return rowReadOf(
                   cast<linalg::LinalgOp>(op).getMatchingIndexingMap(operand))
            .has_value();
      };
      // A vector the run made holds a value per row of its tiles: read per
      // column (a softmax along columns: the sums of the transposed rows
      // scale the columns), it comes from DRAM, written by the program
      // before.
      auto madeVectorPerColumn = [&](OpOperand *operand) {
        return rowReadOf(cast<linalg::LinalgOp>(op).getMatchingIndexingMap(
                   operand)) == RowRead::PerColumn &&
               madeInRun(operand->get());
      };
      if (shape == rows)
        return llvm::all_of(cast<linalg::LinalgOp>(op).getDpsInputOperands(),
                            rowRead) &&
               llvm::none_of(cast<linalg::LinalgOp>(op).getDpsInputOperands(),
                             madeVectorPerColumn);
      return rows.size() >= 2 && ArrayRef<int64_t>(shape) == rows.drop_back() &&
             llvm::all_of(
                 cast<linalg::LinalgOp>(op).getDpsInputs(), [&](Value v) {
                   return !isa<MemRefType>(v.getType()) || madeInRun(v);
                 });
    };
    auto outOfShape = [&](Operation *earlier) {
      if (reduces(earlier) && !rowShaped(ops[i], shapeOf(earlier)))
        return !reduces(ops[i]) || shapeOf(earlier) != shapeOf(ops[i]);
      return reduces(ops[i]) && !rowShaped(earlier, shapeOf(ops[i]));
    };
    if (llvm::any_of(run, outOfShape)) {
      // Its fills (delayed to just before it) come along.
      SmallVector<Operation *> fills;
      while (!run.empty() && isa<linalg::FillOp>(run.back())) {
        fills.insert(fills.begin(), run.back());
        run.pop_back();
      }
      flush();
      run.append(fills);
    }
    run.push_back(ops[i]);
  }
  flush();
  return groups;
}

FailureOr<SmallVector<ProgramPart>>
strata::tile::splitFunction(func::FuncOp fn,
                            ArrayRef<SmallVector<Operation *>> groups) {
  // Which groups use each buffer, and the DRAM name of each shared one.
  DenseMap<Value, SmallVector<size_t, 2>> users;
  for (auto [index, group] : llvm::enumerate(groups))
    for (Operation *op : group)
      for (Value v : op->getOperands())
        if (isa<MemRefType>(v.getType()) &&
            !llvm::is_contained(users[rootOf(v)], index))
          users[rootOf(v)].push_back(index);
  DenseMap<Value, std::string> names;
  int64_t scratch = 0;
  auto nameOf = [&](Value view) {
    Value v = rootOf(view);
    std::string &name = names[v];
    if (std::optional<StringRef> constant = constantNameOf(v))
      name = constant->str(); // the runtime fills it from the module
    if (name.empty())
      name = isa<BlockArgument>(v)
                 ? "arg" + std::to_string(cast<BlockArgument>(v).getArgNumber())
                 : "tmp" + std::to_string(scratch++);
    return name;
  };

  // Each group's DRAM tensors: a buffer read before the group writes it
  // is an input, one it writes an output; one that is both (an in-place
  // pass) is two tensors of one scratch name, so that the program reads
  // the old contents and writes the new.
  SmallVector<SetVector<Value>> inputsOf(groups.size()),
      outputsOf(groups.size()), partialOf(groups.size());
  for (auto [index, group] : llvm::enumerate(groups)) {
    DenseSet<Value> written;
    for (Operation *op : group) {
      SmallVector<Value> reads, writes, partial;
      accesses(op, reads, writes, &partial);
      partialOf[index].insert(partial.begin(), partial.end());
      for (Value v : reads)
        if (!written.contains(rootOf(v)))
          inputsOf[index].insert(v);
      for (Value v : writes) {
        written.insert(rootOf(v));
        outputsOf[index].insert(v);
      }
    }
  }
  // Whether what group `index` leaves in `v` is read later: by a later
  // group before one writes it again, or as the function's own argument
  // (its result) at the end.
  auto readAfter = [&](size_t index, Value v) {
    v = rootOf(v);
    auto holds = [&](const SetVector<Value> &views) {
      return llvm::any_of(views, [&](Value w) { return rootOf(w) == v; });
    };
    for (size_t later = index + 1; later < groups.size(); ++later) {
      if (holds(inputsOf[later]) || holds(partialOf[later]))
        return true;
      if (holds(outputsOf[later]))
        return false;
    }
    return isa<BlockArgument>(v);
  };

  OpBuilder builder(fn);
  SmallVector<ProgramPart> parts;
  for (auto [index, group] : llvm::enumerate(groups)) {
    const SetVector<Value> &inputs = inputsOf[index],
                           &outputs = outputsOf[index];
    SmallVector<Value> internal; // buffers only this group uses
    auto shared = [&](Value v) {
      v = rootOf(v);
      return isa<BlockArgument>(v) || users[v].size() > 1 ||
             constantNameOf(v).has_value();
    };
    for (const SetVector<Value> *set : {&inputs, &outputs})
      for (Value v : *set)
        if (!shared(v) && !llvm::is_contained(internal, rootOf(v)))
          internal.push_back(rootOf(v));
    SmallVector<Value> in, out;
    for (Value v : inputs)
      if (shared(v))
        in.push_back(v);
    for (Value v : outputs)
      if (shared(v))
        out.push_back(v);

    ProgramPart part;
    SmallVector<Type> types;
    for (Value v : llvm::concat<Value>(in, out)) {
      types.push_back(v.getType());
      part.binds.push_back(nameOf(v));
    }
    std::string name = (fn.getSymName() + "." + std::to_string(index)).str();
    auto partFn = func::FuncOp::create(builder, fn.getLoc(), name,
                                       builder.getFunctionType(types, {}));
    // On an error, the parts made so far leave the module again.
    auto discard = [&] {
      partFn.erase();
      for (ProgramPart &made : parts)
        made.fn.erase();
    };
    // An output whose contents nothing reads after this program (a later
    // one overwrites it first) may stay a temporary of the program.
    for (auto [i, v] : llvm::enumerate(out))
      if (!readAfter(index, v))
        partFn.setArgAttr(in.size() + i, kUnreadAfterAttr,
                          builder.getUnitAttr());
    Block *body = partFn.addEntryBlock();
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    IRMapping map;
    // Constants (fill values, scalars captured by bodies) and the group's
    // own buffers come along.
    for (auto constant : fn.getBody().getOps<arith::ConstantOp>())
      inside.clone(*constant, map);
    for (Value v : internal) {
      Operation *def = v.getDefiningOp();
      if (!isa_and_nonnull<memref::AllocOp>(def)) {
        discard();
        return fn.emitError() << "the tile target splits @" << fn.getSymName()
                              << " into programs at op boundaries; a buffer "
                                 "of part "
                              << index << " is not allocated in the function";
      }
      inside.clone(*def, map);
    }
    for (auto [i, v] : llvm::enumerate(in))
      map.map(v, body->getArgument(i));
    // Views of the group's own buffers come along with them.
    std::function<void(Value)> viewOf = [&](Value v) {
      Operation *def = v.getDefiningOp();
      if (map.contains(v) || !def || !isReshape(*def) || isStridedView(v))
        return;
      viewOf(def->getOperand(0));
      inside.clone(*def, map);
    };
    // A strided view is cut inside the part from the buffer its program
    // declares (through the reshapes and subviews between them): the
    // output argument when the op writes through it.
    std::function<void(Value)> chainOf = [&](Value v) {
      Operation *view = v.getDefiningOp();
      if (map.contains(v) || !isViewOp(view))
        return;
      chainOf(view->getOperand(0));
      inside.clone(*view, map);
    };
    for (Operation *op : group) {
      if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        Value target = withoutSubviews(copy.getTarget());
        auto at = llvm::find(out, target);
        if (target != copy.getTarget() && at != out.end())
          map.map(target, body->getArgument(in.size() + (at - out.begin())));
      }
      for (Value v : op->getOperands()) {
        if (isStridedView(v))
          chainOf(v);
        else if (!shared(v))
          viewOf(v);
      }
      Operation *clone = inside.clone(*op, map);
      // The first write of an output tensor goes to its output argument
      // (inputs of the same op still read the input tensor); later ops
      // read it there.
      SmallVector<Value> reads, writes;
      accesses(op, reads, writes);
      for (Value v : writes) {
        auto at = llvm::find(out, v);
        if (at == out.end())
          continue;
        Value arg = body->getArgument(in.size() + (at - out.begin()));
        Value current = map.lookupOrDefault(v);
        if (current == arg)
          continue;
        for (OpOperand &operand : clone->getOpOperands()) {
          if (operand.get() != current)
            continue;
          if (isa<memref::CopyOp>(clone)) {
            if (operand.getOperandNumber() == 1)
              operand.set(arg);
            continue;
          }
          auto linalgOp = cast<linalg::LinalgOp>(clone);
          if (!linalgOp.isDpsInit(&operand))
            continue;
          if (current != v && linalgOp.payloadUsesValueFromOperand(&operand)) {
            discard();
            return op->emitError()
                   << "the tile target splits @" << fn.getSymName()
                   << " into programs; this op accumulates into a buffer "
                      "that its program reads from DRAM";
          }
          operand.set(arg);
        }
        map.map(v, arg);
      }
    }
    func::ReturnOp::create(inside, fn.getLoc());
    part.fn = partFn;
    parts.push_back(std::move(part));
  }
  return parts;
}
