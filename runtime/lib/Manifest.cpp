//===- Manifest.cpp - What an artifact says about itself ------------------===//
#include "strata/rt/Manifest.h"

#include <nlohmann/json.hpp>

using namespace strata::rt;
using json = nlohmann::json;

const FunctionInfo *Manifest::find(const std::string &name) const {
  for (const FunctionInfo &f : functions)
    if (f.signature.name == name)
      return &f;
  return nullptr;
}

static json specsToJson(const std::vector<TensorSpec> &specs) {
  json out = json::array();
  for (const TensorSpec &s : specs)
    out.push_back({{"type", elementTypeName(s.type)}, {"shape", s.shape}});
  return out;
}

std::string Manifest::toJson() const {
  json doc;
  doc["format"] = "strata-manifest";
  doc["version"] = 1;
  doc["chip"] = chip;
  doc["device_kind"] = deviceKind;
  doc["functions"] = json::array();
  for (const FunctionInfo &f : functions)
    doc["functions"].push_back({{"name", f.signature.name},
                                {"inputs", specsToJson(f.signature.inputs)},
                                {"outputs", specsToJson(f.signature.outputs)},
                                {"flops", f.flops},
                                {"bytes", f.bytes},
                                {"roofline_seconds", f.rooflineSeconds},
                                {"tolerances", f.tolerances},
                                {"input_mantissa_bits", f.inputMantissaBits}});
  return doc.dump();
}

namespace {
/// Reads a manifest, every error naming its JSON path.
struct Reader {
  std::string source;
  Status fail(const std::string &path, const std::string &why) const {
    return Status::error(source + ": manifest " + path + ": " + why);
  }
  Status specs(const json &list, const std::string &path,
               std::vector<TensorSpec> &out) const {
    if (!list.is_array())
      return fail(path, "expected an array of {type, shape}");
    for (size_t i = 0; i < list.size(); ++i) {
      std::string at = path + "[" + std::to_string(i) + "]";
      const json &item = list[i];
      if (!item.is_object() || !item.contains("type") ||
          !item["type"].is_string())
        return fail(at + ".type", "expected an element type such as \"f32\"");
      auto type = parseElementType(item["type"].get<std::string>());
      if (!type)
        return fail(at + ".type", "unknown element type '" +
                                      item["type"].get<std::string>() + "'");
      TensorSpec spec{*type, {}};
      if (!item.contains("shape") || !item["shape"].is_array())
        return fail(at + ".shape", "expected an array of extents");
      int64_t elements = 1;
      for (const json &dim : item["shape"]) {
        if (!dim.is_number_integer() || dim.get<int64_t>() < 0 ||
            dim.get<int64_t>() > (int64_t(1) << 40))
          return fail(at + ".shape", "expected non-negative integer extents");
        spec.shape.push_back(dim.get<int64_t>());
        elements *= spec.shape.back();
        if (elements > (int64_t(1) << 40))
          return fail(at + ".shape", "too many elements");
      }
      out.push_back(spec);
    }
    return Status::success();
  }
  double number(const json &f, const char *key) const {
    return f.contains(key) && f[key].is_number() ? f[key].get<double>() : 0.0;
  }
};
} // namespace

Result<Manifest> Manifest::fromJson(const std::string &text,
                                    const std::string &source) {
  json doc = json::parse(text, nullptr, false);
  Reader r{source};
  if (doc.is_discarded() || !doc.is_object())
    return r.fail("", "not a JSON object");
  Manifest m;
  if (doc.contains("chip") && doc["chip"].is_string())
    m.chip = doc["chip"].get<std::string>();
  if (doc.contains("device_kind") && doc["device_kind"].is_string())
    m.deviceKind = doc["device_kind"].get<std::string>();
  if (!doc.contains("functions") || !doc["functions"].is_array())
    return r.fail("functions", "expected an array");
  const json &functions = doc["functions"];
  for (size_t i = 0; i < functions.size(); ++i) {
    std::string at = "functions[" + std::to_string(i) + "]";
    const json &f = functions[i];
    if (!f.is_object() || !f.contains("name") || !f["name"].is_string())
      return r.fail(at + ".name", "expected the function's name");
    FunctionInfo info;
    info.signature.name = f["name"].get<std::string>();
    if (Status s = r.specs(f.value("inputs", json()), at + ".inputs",
                           info.signature.inputs);
        !s.ok())
      return s;
    if (Status s = r.specs(f.value("outputs", json()), at + ".outputs",
                           info.signature.outputs);
        !s.ok())
      return s;
    info.flops = r.number(f, "flops");
    info.bytes = r.number(f, "bytes");
    info.rooflineSeconds = r.number(f, "roofline_seconds");
    if (f.contains("tolerances") && f["tolerances"].is_array())
      for (const json &t : f["tolerances"])
        info.tolerances.push_back(t.is_number() ? t.get<double>() : 0.0);
    if (f.contains("input_mantissa_bits") &&
        f["input_mantissa_bits"].is_number_integer())
      info.inputMantissaBits = f["input_mantissa_bits"].get<int64_t>();
    m.functions.push_back(std::move(info));
  }
  return m;
}
