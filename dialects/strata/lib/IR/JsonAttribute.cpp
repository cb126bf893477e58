//===- JsonAttribute.cpp - JSON <-> attribute conversion ------------------===//
//
// The hardware description travels in IR as the JSON document itself, in
// attribute form, so that there is one source of truth for a chip's facts.
//
//===----------------------------------------------------------------------===//
#include "strata/Dialect/Strata/IR/StrataDialect.h"

#include "mlir/IR/Builders.h"
#include <nlohmann/json.hpp>

using namespace mlir;

Attribute strata::jsonToAttribute(MLIRContext *ctx,
                                  const nlohmann::json &value) {
  Builder b(ctx);
  switch (value.type()) {
  case nlohmann::json::value_t::object: {
    SmallVector<NamedAttribute> entries;
    for (auto it = value.begin(); it != value.end(); ++it)
      entries.push_back(
          b.getNamedAttr(it.key(), jsonToAttribute(ctx, it.value())));
    return b.getDictionaryAttr(entries);
  }
  case nlohmann::json::value_t::array: {
    SmallVector<Attribute> elements;
    for (const auto &element : value)
      elements.push_back(jsonToAttribute(ctx, element));
    return b.getArrayAttr(elements);
  }
  case nlohmann::json::value_t::string:
    return b.getStringAttr(value.get<std::string>());
  case nlohmann::json::value_t::boolean:
    return b.getBoolAttr(value.get<bool>());
  case nlohmann::json::value_t::number_integer:
    return b.getI64IntegerAttr(value.get<int64_t>());
  case nlohmann::json::value_t::number_unsigned:
    return b.getI64IntegerAttr(static_cast<int64_t>(value.get<uint64_t>()));
  case nlohmann::json::value_t::number_float:
    return b.getF64FloatAttr(value.get<double>());
  default:
    return b.getUnitAttr();
  }
}

nlohmann::json strata::attributeToJson(Attribute attr) {
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    nlohmann::json object = nlohmann::json::object();
    for (NamedAttribute entry : dict)
      object[entry.getName().str()] = attributeToJson(entry.getValue());
    return object;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    nlohmann::json list = nlohmann::json::array();
    for (Attribute element : array)
      list.push_back(attributeToJson(element));
    return list;
  }
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto boolean = dyn_cast<BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  return nullptr;
}
