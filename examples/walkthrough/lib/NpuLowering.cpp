//===- NpuLowering.cpp - Mapped IR to straight-line npu code (S5) ---------===//
//
// Each linalg op of the mapped IR is cut into the blocks its schedule chose
// (strata::codegen::BlockGrid). Blocks go round robin over the cores. For
// each block and each step along its reduction loops the DMA engine loads
// every input's box into the scratchpad, in two copies so that the next step
// loads while this one computes; a contraction's step runs on the systolic
// array into the accumulator, any other body becomes one vector op per body
// op over strided views of the boxes (stride 0 where an operand does not
// vary: broadcasts, constants, a reduction's output). The output box is
// stored once the next block's loads are queued. Every op waits for the ops
// that last wrote what it touches or still read what it writes
// (codegen::Hazards; the simulator checks this); a wait ends each linalg op.
//
//===----------------------------------------------------------------------===//
#include "Npu/NpuDialect.h"
#include "strata/Codegen/BlockGrid.h"
#include "strata/Codegen/BodyValues.h"
#include "strata/Codegen/Hazards.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace npu {
#define GEN_PASS_DECL
#define GEN_PASS_DEF_NPULOWER
#include "Npu/NpuPasses.h.inc"
} // namespace npu

using namespace mlir;
using namespace npu;
using namespace strata::codegen;

namespace {

/// A buffer and the stride per loop of the op that walks it.
struct View {
  Value buf;
  Ints strides;
};

/// The vector-unit function of a body op ("": none).
std::string vectorFn(Operation *op) {
  static const llvm::StringMap<std::string> fns = {
      {"arith.addf", "add"},       {"arith.addi", "add"},
      {"arith.subf", "sub"},       {"arith.subi", "sub"},
      {"arith.mulf", "mul"},       {"arith.muli", "mul"},
      {"arith.divf", "div"},       {"arith.maximumf", "max"},
      {"arith.maxsi", "max"},      {"arith.minimumf", "min"},
      {"arith.minsi", "min"},      {"arith.maxnumf", "maxnum"},
      {"arith.minnumf", "minnum"}, {"arith.negf", "neg"},
      {"math.absf", "abs"},        {"math.exp", "exp"},
      {"math.tanh", "tanh"},       {"math.erf", "erf"},
      {"math.sqrt", "sqrt"},       {"math.rsqrt", "rsqrt"}};
  if (isa<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::ExtSIOp,
          arith::TruncIOp, arith::FPToSIOp>(op))
    return "copy";
  return fns.lookup(op->getName().getStringRef());
}

Ints withOffset(ArrayRef<int64_t> strides) {
  Ints view{0};
  view.append(strides.begin(), strides.end());
  return view;
}

bool isContraction(linalg::LinalgOp op) {
  auto schedule = strata::getSchedule(op, op.getNumLoops());
  return succeeded(schedule) && *schedule && (*schedule)->kind == "contraction";
}

/// Emits one linalg op as npu code.
class Lowerer {
public:
  Lowerer(linalg::LinalgOp op, int64_t cores, int64_t spad, int64_t acc,
          int64_t align)
      : op(op), b(op), loc(op.getLoc()), cores(cores), capacity{0, spad, acc},
        align(align), used(cores, {0, 0, 0}) {}
  LogicalResult lower(bool zeroInit);

private:
  /// Bytes of `elements` values of `t`, rounded to the scratchpad's alignment.
  int64_t bytesOf(Type t, int64_t elements) const {
    return llvm::alignTo(elements * ((t.getIntOrFloatBitWidth() + 7) / 8),
                         align);
  }
  Value buffer(int64_t core, unsigned space, Type type, int64_t elements) {
    int64_t bytes = bytesOf(type, elements), &at = used[core][space];
    auto memref = MemRefType::get({elements}, type, AffineMap(), space);
    Value buf = BufferOp::create(b, loc, memref, core, at);
    at += bytes;
    return buf;
  }
  Type token() { return TokenType::get(b.getContext()); }
  void dma(bool load, Value dram, Value local, const Box &box, int64_t core) {
    auto shape = cast<MemRefType>(dram.getType()).getShape();
    Ints dramView = boxView(shape, box),
         localView = withOffset(rowMajorStrides(box.size));
    SmallVector<Value> none, locals{local};
    auto &reads = load ? none : locals, &writes = load ? locals : none;
    SmallVector<Value> deps = hazards.after(reads, writes);
    Value t =
        load ? DmaLoadOp::create(b, loc, token(), dram, local, deps, box.size,
                                 dramView, localView, core)
             : Value(DmaStoreOp::create(b, loc, token(), local, dram, deps,
                                        box.size, localView, dramView, core));
    hazards.record(t, reads, writes);
  }
  void vector(StringRef fn, const View &out, ArrayRef<View> ins,
              ArrayRef<int64_t> sizes, int64_t core,
              std::optional<double> scalar = std::nullopt) {
    SmallVector<Value> bufs;
    SmallVector<Attribute> views;
    for (const View &in : ins) {
      bufs.push_back(in.buf);
      views.push_back(b.getDenseI64ArrayAttr(withOffset(in.strides)));
    }
    Value t = VectorOp::create(
        b, loc, token(), b.getStringAttr(fn), out.buf, bufs,
        hazards.after(bufs, {out.buf}), b.getDenseI64ArrayAttr(sizes),
        b.getDenseI64ArrayAttr(withOffset(out.strides)), b.getArrayAttr(views),
        scalar ? b.getF64FloatAttr(*scalar) : FloatAttr(),
        b.getI64IntegerAttr(core));
    hazards.record(t, bufs, {out.buf});
  }

  linalg::LinalgOp op;
  OpBuilder b;
  Location loc;
  int64_t cores, capacity[3], align;
  std::vector<std::array<int64_t, 3>> used;
  Hazards hazards;
};

LogicalResult Lowerer::lower(bool zeroInit) {
  FailureOr<BlockGrid> grid = BlockGrid::of(op);
  if (failed(grid) || op.getNumDpsInits() != 1)
    return failed(grid) ? failure() : op.emitOpError("npu: expects one output");
  BlockGrid &g = *grid;
  bool contraction = isContraction(op);
  OpOperand *out = op.getDpsInitOperand(0);
  Block &body = *op.getBlock();
  Value outArg = op.getMatchingBlockArgument(out);
  bool readsOut = !outArg.use_empty() && !(contraction && zeroInit);

  FailureOr<ProductRoles> roles = productRoles(op);
  if (contraction && failed(roles))
    return op.emitOpError("npu: not a matrix product of two operands");

  // Scratchpad per core: two boxes per memref operand, the temporaries.
  // Elementwise blocks shrink until they fit: the core's model does not
  // see the body's temporaries.
  Operation *direct = contraction ? nullptr : directWriter(op);
  BodySlots slots = contraction ? BodySlots() : assignBodySlots(op, direct);
  if (!contraction)
    g.shrinkUntil([&](const BlockGrid &g) {
      int64_t bytes = 0;
      for (OpOperand &operand : op->getOpOperands())
        if (isa<MemRefType>(operand.get().getType()))
          bytes += 2 * bytesOf(getElementTypeOrSelf(operand.get().getType()),
                               g.boxElements(&operand));
      for (Type t : slots.types)
        bytes += bytesOf(t, g.points());
      return bytes <= capacity[Spad];
    });

  // Buffers per core: two copies of each input box and of the output box
  // (and the accumulator of a contraction), the temporaries.
  Type outType = getElementTypeOrSelf(out->get().getType());
  Type accType = outType.isInteger() ? Type(b.getI32Type()) : b.getF32Type();
  struct PerCore {
    SmallVector<std::array<Value, 2>> box; // per operand
    std::array<Value, 2> acc;
    SmallVector<Value> temps;
    DenseMap<Value, View> values;
  };
  std::vector<PerCore> per(cores);
  for (int64_t c = 0; c < cores; ++c) {
    per[c].box.resize(op->getNumOperands());
    for (int copy = 0; contraction && copy < 2; ++copy)
      per[c].acc[copy] = buffer(c, Acc, accType, g.boxElements(out));
    for (OpOperand &x : op->getOpOperands())
      for (int copy = 0; copy < 2 && isa<MemRefType>(x.get().getType()); ++copy)
        per[c].box[x.getOperandNumber()][copy] =
            &x == out && contraction && outType == accType
                ? per[c].acc[copy] // results move to and from the accumulator
                : buffer(c, Spad, getElementTypeOrSelf(x.get().getType()),
                         g.boxElements(&x));
    for (Type t : slots.types)
      per[c].temps.push_back(buffer(c, Spad, t, g.points()));
  }

  // A body value: a box, a temporary, or a constant (a scalar input's too)
  // as a one-element buffer filled once per core, read with stride 0; no
  // buffer after an error.
  auto valueOf = [&](PerCore &pc, Value v, int64_t c) -> View {
    if (auto it = pc.values.find(v); it != pc.values.end())
      return it->second;
    Value outer = v;
    if (auto arg = dyn_cast<BlockArgument>(v);
        arg && arg.getOwner() == &body &&
        arg.getArgNumber() < cast<BlockArgument>(outArg).getArgNumber())
      outer = op->getOperand(arg.getArgNumber());
    std::optional<double> k = constantValue(outer);
    if (!k) {
      op.emitOpError("npu: the vector unit cannot broadcast ") << v;
      return View();
    }
    Value buf = buffer(c, Spad, v.getType(), 1);
    vector("fill", {buf, Ints{0}}, {}, {1}, c, *k);
    return pc.values[v] = View{buf, Ints(g.extents.size(), 0)};
  };

  std::vector<std::function<void()>> pendingStore(cores);
  Value outDram = rootBuffer(out->get());
  for (int64_t blk = 0, stepIndex = 0; blk < g.numBlocks(); ++blk) {
    int64_t c = blk % cores, parity = (blk / cores) % 2;
    PerCore &pc = per[c];
    Box outBox = g.box(out, g.start(blk, 0));
    Value outBuf = pc.box[out->getOperandNumber()][parity],
          accBuf = contraction ? pc.acc[parity] : Value();
    Ints outStrides = g.loopStrides(out, outBox.size);
    for (int64_t step = 0; step < g.numSteps(); ++step, ++stepIndex) {
      Ints at = g.start(blk, step), sizes = g.sizesAt(at);
      int64_t stage = stepIndex % 2;
      for (auto [i, in] : llvm::enumerate(op.getDpsInputOperands())) {
        if (!isa<MemRefType>(in->get().getType()))
          continue;
        Box box = g.box(in, at);
        dma(true, rootBuffer(in->get()), pc.box[i][stage], box, c);
        pc.values[body.getArgument(i)] = {pc.box[i][stage],
                                          g.loopStrides(in, box.size)};
      }
      if (step == 0) {
        if (pendingStore[c])
          pendingStore[c]();
        if (readsOut) {
          dma(true, outDram, outBuf, outBox, c);
          if (contraction && accBuf != outBuf)
            vector("copy", {accBuf, outStrides}, {{outBuf, outStrides}}, sizes,
                   c);
        }
      }
      pc.values[outArg] = {outBuf, outStrides};
      if (contraction) {
        const ProductRoles &r = *roles;
        Ints as = g.loopStrides(r.a, g.box(r.a, at).size),
             bs = g.loopStrides(r.b, g.box(r.b, at).size);
        Value a = pc.box[r.a->getOperandNumber()][stage],
              bb = pc.box[r.b->getOperandNumber()][stage];
        Value t = MatmulOp::create(
            b, loc, token(), a, bb, accBuf, hazards.after({a, bb}, {accBuf}),
            sizes[r.m], sizes[r.n], sizes[r.k], Ints{0, as[r.m], as[r.k]},
            Ints{0, bs[r.k], bs[r.n]},
            Ints{0, outStrides[r.m], outStrides[r.n]}, readsOut || step > 0, c);
        hazards.record(t, {a, bb}, {accBuf});
        continue;
      }
      // One vector op per body op; intermediate values in temporaries.
      for (Operation &bodyOp : body.without_terminator()) {
        if (bodyOp.hasTrait<OpTrait::ConstantLike>())
          continue;
        std::string fn = vectorFn(&bodyOp);
        if (fn.empty())
          return bodyOp.emitOpError("cannot run on the npu: its vector unit "
                                    "has no such function");
        SmallVector<View> ins;
        for (Value v : bodyOp.getOperands())
          ins.push_back(valueOf(pc, v, c));
        if (llvm::any_of(ins, [](const View &in) { return !in.buf; }))
          return failure();
        View dst{outBuf, outStrides};
        if (&bodyOp != direct)
          dst = {pc.temps[slots.slotOf[bodyOp.getResult(0)]],
                 rowMajorStrides(g.block)};
        vector(fn, dst, ins, sizes, c);
        pc.values[bodyOp.getResult(0)] = dst;
      }
      View result =
          direct ? View() : valueOf(pc, body.getTerminator()->getOperand(0), c);
      if (!direct && !result.buf)
        return failure();
      if (!direct)
        vector("copy", {outBuf, outStrides}, {result}, sizes, c);
    }
    // A contraction's f32 results leave from the accumulator; narrower ones
    // are converted into the scratchpad first.
    pendingStore[c] = [&, c, outBuf, accBuf, outBox] {
      Value src = outBuf;
      Ints strides = rowMajorStrides(outBox.size);
      if (accBuf && outType == accType)
        src = accBuf;
      else if (accBuf)
        vector("copy", {outBuf, strides}, {{accBuf, strides}}, outBox.size, c);
      dma(false, outDram, src, outBox, c);
      pendingStore[c] = nullptr;
    };
  }
  for (auto &store : pendingStore)
    if (store)
      store();
  WaitOp::create(b, loc);
  for (int space : {Spad, Acc})
    if (used[0][space] > capacity[space])
      return op.emitOpError("npu: needs ")
             << used[0][space] << " bytes of "
             << (space == Spad ? "scratchpad" : "accumulator")
             << " per core, more than its " << capacity[space];
  return success();
}

struct NpuLower : npu::impl::NpuLowerBase<NpuLower> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<strata::hw::Description> chip = strata::descriptionOf(module);
    if (failed(chip))
      return signalPassFailure();
    // The scratchpad with a DMA engine stages operands, one per core; the
    // matrix intrinsic names the accumulator (validated by the plugin).
    int64_t cores = 1, spad = 0, acc = 0, align = 1;
    for (const strata::hw::MemoryLevel &mem : chip->memory) {
      if (mem.engine && !spad)
        spad = mem.capacityBytes, cores = chip->totalUnits(mem.owner),
        align = mem.alignmentBytes;
      if (mem.name == chip->matrix.front().accumulator)
        acc = mem.capacityBytes;
    }
    // Copies between DRAM buffers go through the scratchpad like any op.
    module.walk([](memref::CopyOp copy) {
      OpBuilder b(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    SmallVector<linalg::LinalgOp> ops;
    module.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    // A zero fill right before a contraction: the array starts from zero.
    DenseSet<Operation *> zeroInit;
    for (linalg::LinalgOp op : ops)
      if (isContraction(op) && zeroFillBefore(op))
        zeroInit.insert(op);
    for (linalg::LinalgOp op : ops) {
      bool folded =
          isa<linalg::FillOp>(op) && zeroInit.count(op->getNextNode());
      Lowerer lowerer(op, cores, spad, acc, align);
      if (!folded && failed(lowerer.lower(zeroInit.count(op))))
        return signalPassFailure();
      op->erase();
    }
    // DRAM temporaries are allocated by the runtime per launch; constants
    // now live in the programs' fills.
    module.walk([](Operation *op) {
      if (isa<memref::DeallocOp>(op) ||
          (op->hasTrait<OpTrait::ConstantLike>() && op->use_empty()))
        op->erase();
    });
  }
};

} // namespace
