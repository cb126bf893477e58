//===- Work.h - Arithmetic and traffic of a function ------------*- C++ -*-===//
#ifndef STRATA_ANALYSIS_WORK_H
#define STRATA_ANALYSIS_WORK_H

#include "strata/HW/Model.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace strata {

/// The work of one call: floating-point operations of every linalg op
/// (iterations × arithmetic ops in its body; an FMA counts 2) and the
/// compulsory traffic (bytes of the arguments and results).
struct Work {
  double flops = 0;
  double bytes = 0;
};

/// Estimates the work of `func` (tensor or buffer form, static shapes).
Work estimateWork(mlir::func::FuncOp func);

/// The roofline's lower bound on the time of `work` on a chip: the larger of
/// compute time at the peak for `elementType` and traffic time at the
/// bandwidth of the farthest memory level. 0 when the model lacks either.
double rooflineSeconds(const hw::DerivedModel &model, const Work &work,
                       llvm::StringRef elementType);

} // namespace strata

#endif // STRATA_ANALYSIS_WORK_H
