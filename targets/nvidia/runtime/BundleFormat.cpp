//===- BundleFormat.cpp - The nvidia plugin's artifact, as data -----------===//
#include "BundleFormat.h"

using namespace strata;
using namespace strata::nvidia;

nlohmann::json Bundle::toJson() const {
  nlohmann::json functionsJson = nlohmann::json::array();
  for (const FunctionPlan &f : functions) {
    nlohmann::json steps = nlohmann::json::array();
    for (const LaunchStep &s : f.steps) {
      nlohmann::json args = nlohmann::json::array();
      for (const KernelArg &a : s.args) {
        nlohmann::json arg = {{a.temporary ? "temporary" : "buffer", a.index}};
        if (a.tensorMap) {
          const TensorMapInfo &m = *a.tensorMap;
          arg["element_type"] = m.elementType;
          arg["dims"] = m.dims;
          arg["strides"] = m.strides;
          arg["box"] = m.box;
          arg["swizzle"] = m.swizzleBytes;
          arg["l2_promotion"] = m.l2PromotionBytes;
          arg = {{"tensor_map", arg}};
        }
        args.push_back(arg);
      }
      steps.push_back({{"kernel", s.kernel},
                       {"grid", s.grid},
                       {"block", s.block},
                       {"shared_bytes", s.sharedBytes},
                       {"args", args}});
    }
    functionsJson.push_back({{"name", f.name},
                             {"arguments", f.arguments},
                             {"temporaries", f.temporaries},
                             {"steps", steps}});
  }
  nlohmann::json doc = {{"format", "strata-nvidia-bundle"},
                        {"version", 1},
                        {"chip", chip},
                        {"arch", arch},
                        {"ptx", ptx},
                        {"functions", functionsJson}};
  if (!cubin.empty()) {
    doc["cubin_base64"] = encodeBase64(cubin);
    doc["ptxas"] = ptxasLog;
  }
  if (manifest)
    doc["manifest"] = nlohmann::json::parse(manifest->toJson());
  return doc;
}

std::string Bundle::serialize() const {
  nlohmann::json doc = toJson();
  nlohmann::ordered_json out;
  out["format"] = doc["format"];
  for (auto &[key, value] : doc.items())
    if (key != "format")
      out[key] = value;
  return out.dump(1);
}

rt::Result<Bundle> Bundle::parse(const std::string &text,
                                 const std::string &source) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded())
    return rt::Status::error(source + ": not a JSON bundle (the file is "
                                      "truncated or not JSON)");
  return fromJson(doc, source);
}

rt::Result<Bundle> Bundle::fromJson(const nlohmann::json &doc,
                                    const std::string &source) {
  auto fail = [&](const std::string &why) {
    return rt::Status::error(source + ": " + why);
  };
  try {
    if (!doc.is_object() || doc.value("format", "") != "strata-nvidia-bundle" ||
        doc.value("version", 0) != 1)
      return fail("not a strata nvidia bundle (version 1)");
    Bundle b;
    b.chip = doc.at("chip").get<std::string>();
    b.arch = doc.at("arch").get<std::string>();
    b.ptx = doc.at("ptx").get<std::string>();
    if (doc.contains("cubin_base64")) {
      std::optional<std::string> bytes =
          decodeBase64(doc.at("cubin_base64").get<std::string>());
      if (!bytes)
        return fail("cubin_base64 is not base64");
      b.cubin = std::move(*bytes);
    }
    for (const nlohmann::json &f : doc.at("functions")) {
      FunctionPlan plan;
      plan.name = f.at("name").get<std::string>();
      plan.arguments = f.at("arguments").get<int64_t>();
      plan.temporaries = f.at("temporaries").get<std::vector<int64_t>>();
      for (const nlohmann::json &s : f.at("steps")) {
        LaunchStep step;
        step.kernel = s.at("kernel").get<std::string>();
        step.grid = s.at("grid").get<std::array<int64_t, 3>>();
        step.block = s.at("block").get<std::array<int64_t, 3>>();
        step.sharedBytes = s.at("shared_bytes").get<int64_t>();
        for (const nlohmann::json &given : s.at("args")) {
          bool isMap = given.contains("tensor_map");
          const nlohmann::json &a = isMap ? given.at("tensor_map") : given;
          std::optional<TensorMapInfo> map;
          if (isMap) {
            TensorMapInfo m;
            m.elementType = a.at("element_type").get<std::string>();
            m.dims = a.at("dims").get<std::vector<int64_t>>();
            m.strides = a.at("strides").get<std::vector<int64_t>>();
            m.box = a.at("box").get<std::vector<int64_t>>();
            m.swizzleBytes = a.at("swizzle").get<int64_t>();
            m.l2PromotionBytes = a.value("l2_promotion", int64_t(0));
            if (m.dims.empty() || m.dims.size() > 5 ||
                m.strides.size() != m.dims.size() ||
                m.box.size() != m.dims.size())
              return fail("a tensor map of kernel '" + step.kernel +
                          "' needs dims, strides and box of one rank (1-5)");
            map = std::move(m);
          }
          bool temporary = a.contains("temporary");
          int64_t index = a.at(temporary ? "temporary" : "buffer");
          int64_t limit =
              temporary ? int64_t(plan.temporaries.size()) : plan.arguments;
          if (index < 0 || index >= limit)
            return fail("argument index out of range in kernel '" +
                        step.kernel + "'");
          step.args.push_back({temporary, index, map});
        }
        plan.steps.push_back(std::move(step));
      }
      b.functions.push_back(std::move(plan));
    }
    if (doc.contains("manifest")) {
      auto manifest = rt::Manifest::fromJson(doc.at("manifest").dump(), source);
      if (!manifest.ok())
        return manifest.status();
      b.manifest = std::move(*manifest);
    }
    return b;
  } catch (const nlohmann::json::exception &e) {
    return fail(std::string("malformed strata nvidia bundle: ") + e.what());
  }
}

const FunctionPlan *Bundle::find(const std::string &name) const {
  for (const FunctionPlan &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

bool strata::nvidia::looksLikeBundle(const std::string &head) {
  return head.find("\"strata-nvidia-bundle\"") != std::string::npos;
}

static const char kBase64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string strata::nvidia::encodeBase64(const std::string &bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size())
      n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size())
      n |= uint8_t(bytes[i + 2]);
    out += kBase64[(n >> 18) & 63];
    out += kBase64[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kBase64[n & 63] : '=';
  }
  return out;
}

std::optional<std::string>
strata::nvidia::decodeBase64(const std::string &text) {
  if (text.size() % 4)
    return std::nullopt;
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z')
      return c - 'A';
    if (c >= 'a' && c <= 'z')
      return c - 'a' + 26;
    if (c >= '0' && c <= '9')
      return c - '0' + 52;
    if (c == '+')
      return 62;
    if (c == '/')
      return 63;
    return -1;
  };
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int v[4];
    int padding = 0;
    for (int j = 0; j < 4; ++j) {
      char c = text[i + j];
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        v[j] = 0;
        ++padding;
        continue;
      }
      if (padding || (v[j] = value(c)) < 0)
        return std::nullopt;
    }
    uint32_t n = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 |
                 uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out += char(n >> 16);
    if (padding < 2)
      out += char((n >> 8) & 0xff);
    if (padding < 1)
      out += char(n & 0xff);
  }
  return out;
}
