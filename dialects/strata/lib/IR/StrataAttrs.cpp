//===- StrataAttrs.cpp - Attributes of the strata dialect -----------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace strata;

#define GET_ATTRDEF_CLASSES
#include "strata/Dialect/Strata/IR/StrataAttrs.cpp.inc"

// Registration lives beside the attribute definitions: addAttributes needs
// their storage classes.
void StrataDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "strata/Dialect/Strata/IR/StrataAttrs.cpp.inc"
      >();
}

/// Level names follow the description's naming rule: non-empty, made of
/// letters, digits, '_' and '-'.
static LogicalResult verifyLevelName(function_ref<InFlightDiagnostic()> emit,
                                     StringRef what, StringRef name) {
  bool ok = !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-';
  });
  if (ok)
    return success();
  return emit() << what << " level name '" << name
                << "' must be non-empty and use only [A-Za-z0-9_-]";
}

LogicalResult HardwareAttr::verify(function_ref<InFlightDiagnostic()> emit,
                                   StringRef name, DictionaryAttr description) {
  auto field = [&](StringRef key) {
    return dyn_cast_or_null<StringAttr>(description.get(key));
  };
  StringAttr docName = field("name");
  if (!docName)
    return emit() << "hardware description lacks a string 'name'";
  if (docName.getValue() != name)
    return emit() << "hardware attribute names chip '" << name
                  << "' but its description is of '" << docName.getValue()
                  << "'";
  if (!field("plugin"))
    return emit() << "hardware description of '" << name
                  << "' lacks a string 'plugin'";
  return success();
}

StringRef HardwareAttr::getPlugin() const {
  return cast<StringAttr>(getDescription().get("plugin")).getValue();
}

LogicalResult GridAttr::verify(function_ref<InFlightDiagnostic()> emit,
                               StringRef level, int64_t dim) {
  if (dim < 0)
    return emit() << "grid dimension must be >= 0, got " << dim;
  return verifyLevelName(emit, "compute", level);
}

int64_t GridAttr::getMappingId() const { return getDim(); }
bool GridAttr::isLinearMapping() const { return false; }
int64_t GridAttr::getRelativeIndex() const { return getDim(); }

LogicalResult MemAttr::verify(function_ref<InFlightDiagnostic()> emit,
                              StringRef level) {
  return verifyLevelName(emit, "memory", level);
}
