//===- ValidatorSupport.cpp - Shared checks of a description --------------===//
//
// Helpers for JSON pointers and messages, and the Validator members that
// read one field of an object and check its type and range.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include "strata/HW/Model.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace strata::hw::detail {

std::string pointerToken(llvm::StringRef token) {
  std::string out;
  for (char c : token) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string childPath(const std::string &path, llvm::StringRef key) {
  return path + "/" + pointerToken(key);
}

std::string childPath(const std::string &path, size_t index) {
  return path + "/" + std::to_string(index);
}

/// A short rendering of a value for messages.
std::string describe(const json &value) {
  if (value.is_structured())
    return std::string("an ") + (value.is_array() ? "array" : "object");
  if (value.is_null())
    return "null";
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 48)
    text = text.substr(0, 45) + "...";
  return value.is_boolean() ? "boolean " + text : text;
}

std::string joinQuoted(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &name : names) {
    if (!out.empty())
      out += ", ";
    out += name;
  }
  return out;
}

/// " (did you mean "x"?)" when one of `candidates` is close to `word`.
std::string suggestion(llvm::StringRef word,
                       const std::vector<std::string> &candidates) {
  std::string best;
  unsigned bestDistance = 3;
  for (const std::string &candidate : candidates) {
    unsigned distance = word.edit_distance(candidate, true, bestDistance);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", best);
}

/// Level, memory and intrinsic names: [A-Za-z0-9_.-]+.
bool isIdentifier(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
  });
}

/// The description's own name: [a-z0-9-]+.
bool isDescriptionName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isDigit(c) || (c >= 'a' && c <= 'z') || c == '-';
  });
}

bool withinDepth(const json &value, int depthLeft) {
  if (!value.is_structured())
    return true;
  if (depthLeft == 0)
    return false;
  for (const json &child : value)
    if (!withinDepth(child, depthLeft - 1))
      return false;
  return true;
}

const json *Validator::member(const json &obj, const std::string &path,
                              llvm::StringRef key, bool required,
                              llvm::StringRef expected) {
  auto it = obj.find(key.str());
  if (it != obj.end())
    return &*it;
  if (required)
    error(childPath(path, key),
          fmt::format("missing required field \"{}\": expected {}", key.str(),
                      expected.str()));
  return nullptr;
}

std::optional<std::string> Validator::string(const json &obj,
                                             const std::string &path,
                                             llvm::StringRef key,
                                             bool required) {
  const json *value = member(obj, path, key, required, "a string");
  if (!value)
    return std::nullopt;
  if (!value->is_string()) {
    error(childPath(path, key), "expected a string, got " + describe(*value));
    return std::nullopt;
  }
  return value->get_ref<const std::string &>();
}

std::optional<std::string> Validator::identifier(const json &obj,
                                                 const std::string &path,
                                                 llvm::StringRef key,
                                                 bool required) {
  std::optional<std::string> value = string(obj, path, key, required);
  if (value && !isIdentifier(*value)) {
    error(childPath(path, key),
          fmt::format("expected a name of letters, digits, '_', '.' or "
                      "'-', got {}",
                      describe(json(*value))));
    return std::nullopt;
  }
  return value;
}

std::optional<double> Validator::number(const json &obj,
                                        const std::string &path,
                                        llvm::StringRef key, bool required,
                                        Bound bound) {
  const char *expected =
      bound == Bound::Positive ? "a number > 0" : "a number >= 0";
  const json *value = member(obj, path, key, required, expected);
  if (!value)
    return std::nullopt;
  double x = value->is_number() ? value->get<double>() : NAN;
  if (!std::isfinite(x) || (bound == Bound::Positive && !(x > 0)) ||
      (bound == Bound::NonNegative && !(x >= 0))) {
    error(childPath(path, key),
          fmt::format("expected {}, got {}", expected, describe(*value)));
    return std::nullopt;
  }
  return x;
}

std::optional<int64_t> Validator::integer(const json &obj,
                                          const std::string &path,
                                          llvm::StringRef key, bool required,
                                          int64_t min) {
  std::string expected = min == 1   ? std::string("a positive integer")
                         : min == 0 ? std::string("an integer >= 0")
                                    : fmt::format("an integer >= {}", min);
  const json *value = member(obj, path, key, required, expected);
  if (!value)
    return std::nullopt;
  std::optional<int64_t> result = asInteger(*value);
  if (!result || *result < min) {
    error(childPath(path, key),
          fmt::format("expected {}, got {}", expected, describe(*value)));
    return std::nullopt;
  }
  return result;
}

std::optional<int64_t> Validator::asInteger(const json &value) {
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u > uint64_t(INT64_MAX))
      return std::nullopt;
    return int64_t(u);
  }
  if (value.is_number_integer())
    return value.get<int64_t>();
  if (value.is_number_float()) {
    double x = value.get<double>();
    // [-2^63, 2^63) converts exactly; anything else would be UB.
    if (!std::isfinite(x) || x != std::floor(x) || x < -9.2233720368547758e18 ||
        x >= 9.2233720368547758e18)
      return std::nullopt;
    return int64_t(x);
  }
  return std::nullopt;
}

void Validator::checkKeys(const json &obj, const std::string &path,
                          const std::vector<std::string> &allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string &key = it.key();
    if (isExtensionKey(key) ||
        std::find(allowed.begin(), allowed.end(), key) != allowed.end())
      continue;
    error(childPath(path, key),
          fmt::format("unknown field \"{}\"{}: expected one of {} (or an "
                      "\"x-\" extension key)",
                      key, suggestion(key, allowed), joinQuoted(allowed)));
  }
}

bool Validator::expectObject(const json &value, const std::string &path,
                             llvm::StringRef what) {
  if (value.is_object())
    return true;
  error(path, fmt::format("expected {}, got {}", what.str(), describe(value)));
  return false;
}

std::optional<std::string> Validator::computeRef(const json &obj,
                                                 const std::string &path,
                                                 llvm::StringRef key) {
  std::optional<std::string> name = string(obj, path, key, true);
  if (!name)
    return std::nullopt;
  if (std::find(computeNames.begin(), computeNames.end(), *name) ==
      computeNames.end()) {
    error(childPath(path, key),
          fmt::format("unknown compute level \"{}\"{}: expected one of {}",
                      *name, suggestion(*name, computeNames),
                      joinQuoted(computeNames)));
    return std::nullopt;
  }
  return name;
}

std::optional<std::string> Validator::elementType(const json &obj,
                                                  const std::string &path,
                                                  llvm::StringRef key) {
  std::optional<std::string> type = string(obj, path, key, true);
  if (type && !checkElementType(*type, childPath(path, key)))
    return std::nullopt;
  return type;
}

bool Validator::checkElementType(const std::string &type,
                                 const std::string &path) {
  if (elementTypeBits(type) != 0)
    return true;
  error(path, fmt::format("unknown element type \"{}\"{}: expected one of {}",
                          type, suggestion(type, knownElementTypes()),
                          joinQuoted(knownElementTypes())));
  return false;
}

bool Validator::checkUnique(std::map<std::string, std::string> &seen,
                            const std::string &name, const std::string &path,
                            llvm::StringRef what) {
  auto [it, inserted] = seen.emplace(name, path);
  if (!inserted)
    error(path, fmt::format("duplicate {} name \"{}\": expected unique "
                            "names (first used at {})",
                            what.str(), name, it->second));
  return inserted;
}

} // namespace strata::hw::detail
