//===- InPlaceUpdates.cpp - An output's old value read as an input --------===//
//
// An elementwise op whose body reads its output's old value (a sum of
// window terms added to the output, as a depthwise convolution or a
// pooling becomes) updates a buffer in place. The tile engines read tiles
// of inputs only: the output buffer becomes an input of the op as well,
// read through the output's map. Once split, the program reads the old
// contents from DRAM and writes the new (SplitLowering.cpp).
//
//===----------------------------------------------------------------------===//
#include "FunctionLowering.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace strata;
using namespace strata::tile;

void strata::tile::readOldOutputsAsInputs(func::FuncOp fn) {
  SmallVector<linalg::GenericOp> updates;
  fn.walk([&](linalg::GenericOp op) {
    if (op.getNumReductionLoops() == 0 && op.getNumDpsInits() == 1 &&
        op.hasPureBufferSemantics() &&
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      updates.push_back(op);
  });
  OpBuilder builder(fn.getContext());
  for (linalg::GenericOp op : updates) {
    builder.setInsertionPoint(op);
    OpOperand *init = op.getDpsInitOperand(0);
    SmallVector<Value> inputs(op.getDpsInputs());
    inputs.push_back(init->get());
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands())
      maps.push_back(op.getMatchingIndexingMap(input));
    maps.push_back(op.getMatchingIndexingMap(init));
    maps.push_back(op.getMatchingIndexingMap(init));
    Block &body = op.getRegion().front();
    auto updated = linalg::GenericOp::create(
        builder, op.getLoc(), TypeRange(), inputs, ValueRange{init->get()},
        maps, op.getIteratorTypesArray(),
        [&](OpBuilder &b, Location, ValueRange args) {
          // The old value is the new input's argument; the output's own
          // argument is no longer read.
          IRMapping map;
          for (unsigned i = 0; i + 1 < body.getNumArguments(); ++i)
            map.map(body.getArgument(i), args[i]);
          map.map(body.getArguments().back(), args[inputs.size() - 1]);
          for (Operation &inner : body)
            b.clone(inner, map);
        });
    for (NamedAttribute attr : op->getDiscardableAttrs())
      updated->setAttr(attr.getName(), attr.getValue());
    op.erase();
  }
}
