//===- HoistVectorTransfers.cpp - Accumulators in registers ---------------===//
#include "strata/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Hoisting.h"

namespace strata {
#define GEN_PASS_DEF_STRATAHOISTVECTORTRANSFERS
#include "strata/Transforms/Passes.h.inc"
} // namespace strata

using namespace mlir;

namespace {
struct HoistVectorTransfers
    : strata::impl::StrataHoistVectorTransfersBase<HoistVectorTransfers> {
  void runOnOperation() override {
    // Only loops known to run at least once: hoisting a read out of a loop
    // that never runs would read (and write back) memory the program does not
    // touch.
    linalg::hoistRedundantVectorTransfers(getOperation(),
                                          /*verifyNonZeroTrip=*/true);
  }
};
} // namespace
