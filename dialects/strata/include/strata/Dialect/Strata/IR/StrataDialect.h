//===- StrataDialect.h - The strata dialect ---------------------*- C++ -*-===//
#ifndef STRATA_DIALECT_STRATA_IR_STRATADIALECT_H
#define STRATA_DIALECT_STRATA_IR_STRATADIALECT_H

#include "mlir/Dialect/SCF/IR/DeviceMappingInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "strata/Dialect/Strata/IR/StrataDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "strata/Dialect/Strata/IR/StrataAttrs.h.inc"

#include <nlohmann/json_fwd.hpp>

namespace strata {

/// Converts a JSON document to the attribute form carried by #strata.hw
/// (objects → dictionaries, arrays → arrays, integers → i64, other numbers →
/// f64, strings, booleans; null → unit).
mlir::Attribute jsonToAttribute(mlir::MLIRContext *ctx,
                                const nlohmann::json &value);
/// The inverse of jsonToAttribute.
nlohmann::json attributeToJson(mlir::Attribute attr);

/// The hardware description attached to the module enclosing `op`, if any.
HardwareAttr getHardwareAttr(mlir::Operation *op);

} // namespace strata

#endif // STRATA_DIALECT_STRATA_IR_STRATADIALECT_H
