//===- NarrowedInputs.cpp - Inputs a matrix intrinsic rounds --------------===//
#include "strata/Schedule/NarrowedInputs.h"
#include "strata/Dialect/Strata/IR/StrataDialect.h"
#include "strata/Schedule/Attributes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace strata;
using namespace mlir;

int64_t strata::keptMantissaBits(const hw::MatrixIntrinsic &mi) {
  if (mi.inputMantissaBits > 0)
    return mi.inputMantissaBits;
  return mi.aType == "tf32" ? 10 : 0;
}

/// The matrix intrinsic `op`'s schedule names, or "".
static std::string scheduledIntrinsic(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    auto s = getSchedule(op, linalgOp.getNumLoops());
    return succeeded(s) && *s ? (*s)->matrixIntrinsic : "";
  }
  if (auto kernel = op->getAttrOfType<ScheduleAttr>(kScheduleAttrName))
    if (auto name = kernel.getFields().getAs<StringAttr>("intrinsic"))
      return name.getValue().str();
  return "";
}

std::map<std::string, NarrowedInputs>
strata::narrowedInputs(ModuleOp module, const hw::Description &chip) {
  std::map<std::string, NarrowedInputs> out;
  for (auto func : module.getOps<func::FuncOp>())
    func.walk([&](Operation *op) {
      std::string intrinsic = scheduledIntrinsic(op);
      for (const hw::MatrixIntrinsic &mi : chip.matrix) {
        int64_t bits = keptMantissaBits(mi);
        if (intrinsic.empty() || mi.name != intrinsic || bits == 0)
          continue;
        NarrowedInputs &n = out[func.getSymName().str()];
        if (n.mantissaBits == 0 || bits < n.mantissaBits)
          n = {bits, mi.aType};
      }
    });
  return out;
}
