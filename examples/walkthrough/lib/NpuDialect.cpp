//===- NpuDialect.cpp - npu ops and their verifiers -----------------------===//
#include "Npu/NpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace npu;

#include "Npu/NpuDialect.cpp.inc"
#define GET_TYPEDEF_CLASSES
#include "Npu/NpuTypes.cpp.inc"
#define GET_OP_CLASSES
#include "Npu/NpuOps.cpp.inc"

void NpuDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Npu/NpuTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Npu/NpuOps.cpp.inc"
      >();
}

/// Checks that `view` ([offset, strides...] over `sizes`) stays inside
/// `memref` (flat scratchpad buffers; DRAM buffers by their element count).
static LogicalResult checkView(Operation *op, StringRef name, Value memref,
                               ArrayRef<int64_t> view,
                               ArrayRef<int64_t> sizes) {
  auto type = cast<MemRefType>(memref.getType());
  if (view.size() != sizes.size() + 1)
    return op->emitOpError()
           << name << " view has " << view.size()
           << " entries, expected offset and " << sizes.size() << " strides";
  int64_t last = view[0], first = view[0];
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] <= 0)
      return op->emitOpError() << "size " << d << " is " << sizes[d];
    (view[d + 1] > 0 ? last : first) += (sizes[d] - 1) * view[d + 1];
  }
  if (first < 0 || last >= type.getNumElements())
    return op->emitOpError()
           << name << " view reaches elements " << first << ".." << last
           << " of a buffer of " << type.getNumElements();
  return success();
}

LogicalResult BufferOp::verify() {
  if (spaceOf(getType()) != Spad && spaceOf(getType()) != Acc)
    return emitOpError("expects a scratchpad (1) or accumulator (2) memref");
  if (getOffset() < 0 || getCore() < 0)
    return emitOpError("expects a non-negative core and offset");
  return success();
}

/// DRAM on one side, a core's buffer on the other, same element type.
template <typename Dma>
static LogicalResult verifyDma(Dma op, Value dram, Value local) {
  if (spaceOf(dram.getType()) != Dram || spaceOf(local.getType()) == Dram)
    return op.emitOpError("moves between DRAM and a core's buffer");
  if (getElementTypeOrSelf(dram) != getElementTypeOrSelf(local))
    return op.emitOpError("expects the same element type on both sides");
  return success(succeeded(checkView(op, "source", op.getSrc(), op.getSrcView(),
                                     op.getSizes())) &&
                 succeeded(checkView(op, "destination", op.getDst(),
                                     op.getDstView(), op.getSizes())));
}
LogicalResult DmaLoadOp::verify() {
  return verifyDma(*this, getSrc(), getDst());
}
LogicalResult DmaStoreOp::verify() {
  return verifyDma(*this, getDst(), getSrc());
}

LogicalResult MatmulOp::verify() {
  if (spaceOf(getA().getType()) != Spad || spaceOf(getB().getType()) != Spad ||
      spaceOf(getAcc().getType()) != Acc)
    return emitOpError("reads the scratchpad and writes the accumulator");
  if (getElementTypeOrSelf(getA()) != getElementTypeOrSelf(getB()))
    return emitOpError("expects operands of one element type");
  int64_t m = getM(), n = getN(), k = getK();
  return success(
      succeeded(checkView(*this, "a", getA(), getAView(), {m, k})) &&
      succeeded(checkView(*this, "b", getB(), getBView(), {k, n})) &&
      succeeded(checkView(*this, "acc", getAcc(), getAccView(), {m, n})));
}

LogicalResult VectorOp::verify() {
  static const llvm::StringMap<int> arities = {
      {"add", 2},  {"sub", 2},    {"mul", 2},    {"div", 2},   {"max", 2},
      {"min", 2},  {"maxnum", 2}, {"minnum", 2}, {"copy", 1},  {"exp", 1},
      {"tanh", 1}, {"erf", 1},    {"sqrt", 1},   {"rsqrt", 1}, {"recip", 1},
      {"neg", 1},  {"abs", 1},    {"adds", 1},   {"muls", 1},  {"fill", 0}};
  auto known = arities.find(getFn());
  if (known == arities.end())
    return emitOpError() << "unknown function '" << getFn() << "'";
  int arity = known->second;
  if (int64_t(getIns().size()) != arity)
    return emitOpError() << "'" << getFn() << "' takes " << arity
                         << " inputs, got " << getIns().size();
  bool scalar = getFn() == "fill" || getFn() == "adds" || getFn() == "muls";
  if (scalar != getScalar().has_value())
    return emitOpError() << "'" << getFn() << "' "
                         << (scalar ? "needs" : "takes no") << " scalar";
  if (getInViews().size() != getIns().size())
    return emitOpError("expects one view per input");
  Value out = getOut();
  for (Value v : llvm::concat<Value>(getIns(), ValueRange(out)))
    if (spaceOf(v.getType()) == Dram)
      return emitOpError("works on a core's buffers, not DRAM");
  for (auto [in, view] : llvm::zip(getIns(), getInViews()))
    if (failed(checkView(*this, "input", in,
                         cast<DenseI64ArrayAttr>(view).asArrayRef(),
                         getSizes())))
      return failure();
  return checkView(*this, "output", getOut(), getOutView(), getSizes());
}
