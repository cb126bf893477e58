//===- StrataOps.td - Operations of the strata dialect -----*- tablegen -*-===//
#ifndef STRATA_DIALECT_STRATA_OPS
#define STRATA_DIALECT_STRATA_OPS

include "strata/Dialect/Strata/IR/StrataBase.td"

// The core needs no operation of its own yet: the matrix-unit op of the mapped
// IR (strata.mma) arrives with the matrix-unit mapping.

#endif // STRATA_DIALECT_STRATA_OPS
