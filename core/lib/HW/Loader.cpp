//===- Loader.cpp - Parse and validate a hardware description -------------===//
//
// JSON parsing that reports duplicate keys and the line and column of a
// syntax error, and the public entry points that run the checks of
// Validator.h. Nothing here throws out of the public entry points.
//
//===----------------------------------------------------------------------===//

#include "Validator.h"

#include "strata/HW/Description.h"

#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

namespace strata::hw {
namespace {

using json = nlohmann::json;
using detail::childPath;

/// Tracks object keys while parsing to report duplicates, which nlohmann
/// would otherwise resolve silently by keeping the last value.
class DuplicateKeyTracker {
public:
  explicit DuplicateKeyTracker(std::vector<Diagnostic> &errors)
      : errors(errors) {}

  bool operator()(int, json::parse_event_t event, json &parsed) {
    switch (event) {
    case json::parse_event_t::object_start:
      childStarted();
      stack.push_back({false, 0, {}, {}});
      break;
    case json::parse_event_t::array_start:
      childStarted();
      stack.push_back({true, 0, {}, {}});
      break;
    case json::parse_event_t::key: {
      if (stack.empty() || !parsed.is_string())
        break;
      Frame &frame = stack.back();
      frame.key = parsed.get<std::string>();
      if (!frame.keys.insert(frame.key).second)
        errors.push_back({currentPath(),
                          fmt::format("duplicate key \"{}\": expected each "
                                      "key once in an object",
                                      frame.key),
                          0, 0});
      break;
    }
    case json::parse_event_t::value:
      childStarted();
      break;
    case json::parse_event_t::object_end:
    case json::parse_event_t::array_end:
      if (!stack.empty())
        stack.pop_back();
      break;
    }
    return true;
  }

private:
  struct Frame {
    bool isArray;
    size_t nextIndex;
    std::string key;
    std::set<std::string> keys;
  };

  void childStarted() {
    if (!stack.empty() && stack.back().isArray)
      ++stack.back().nextIndex;
  }

  std::string currentPath() const {
    std::string path;
    for (const Frame &frame : stack)
      path = frame.isArray ? childPath(path, frame.nextIndex - 1)
                           : childPath(path, frame.key);
    return path;
  }

  std::vector<Diagnostic> &errors;
  std::vector<Frame> stack;
};

/// nlohmann's message without its "[json.exception...] parse error at line
/// L, column C: " prefix (the position is reported separately).
std::string parseErrorMessage(const std::string &what) {
  size_t column = what.find("column ");
  size_t colon = what.find(": ", column == std::string::npos ? 0 : column);
  if (colon != std::string::npos)
    return what.substr(colon + 2);
  size_t bracket = what.find("] ");
  return bracket == std::string::npos ? what : what.substr(bracket + 2);
}

} // namespace

LoadResult loadDescriptionJson(const nlohmann::json &doc,
                               llvm::StringRef sourceName,
                               const LoadOptions &options) {
  LoadResult result;
  result.sourceName = sourceName.str();
  try {
    if (!detail::withinDepth(doc, detail::kMaxDepth)) {
      result.errors.push_back(
          {"",
           fmt::format("document nests too deeply: expected at most {} "
                       "levels of arrays and objects",
                       detail::kMaxDepth),
           0, 0});
      return result;
    }
    detail::Validator validator(options);
    Description desc;
    validator.validate(doc, desc);
    result.errors = std::move(validator.errors);
    if (result.errors.empty()) {
      desc.document = doc;
      result.description = std::move(desc);
    }
  } catch (const std::exception &e) {
    result.description.reset();
    result.errors.push_back(
        {"", fmt::format("internal error while validating: {}", e.what()), 0,
         0});
  }
  return result;
}

LoadResult parseDescription(llvm::StringRef text, llvm::StringRef sourceName,
                            const LoadOptions &options) {
  LoadResult result;
  result.sourceName = sourceName.str();
  std::vector<Diagnostic> duplicates;
  json doc;
  try {
    DuplicateKeyTracker tracker(duplicates);
    doc = json::parse(text.begin(), text.end(), std::ref(tracker));
  } catch (const json::parse_error &e) {
    // e.byte is the 1-based index of the character that stopped the parser.
    size_t offset = std::min<size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    llvm::StringRef before = text.take_front(offset);
    size_t lastNewline = before.rfind('\n');
    Diagnostic diag;
    diag.line = int(std::min<size_t>(before.count('\n') + 1, INT32_MAX));
    diag.column = int(std::min<size_t>(lastNewline == llvm::StringRef::npos
                                           ? offset + 1
                                           : offset - lastNewline,
                                       INT32_MAX));
    diag.message = "malformed JSON: " + parseErrorMessage(e.what());
    result.errors.push_back(std::move(diag));
    return result;
  } catch (const std::exception &e) {
    result.errors.push_back(
        {"",
         fmt::format("malformed JSON: {}: expected a JSON document", e.what()),
         0, 0});
    return result;
  }
  LoadResult loaded = loadDescriptionJson(doc, sourceName, options);
  if (!duplicates.empty()) {
    loaded.description.reset();
    loaded.errors.insert(loaded.errors.begin(), duplicates.begin(),
                         duplicates.end());
  }
  return loaded;
}

LoadResult loadDescriptionFile(llvm::StringRef path,
                               const LoadOptions &options) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    LoadResult result;
    result.sourceName = path.str();
    result.errors.push_back(
        {"",
         fmt::format("cannot read the file ({}): expected a readable JSON "
                     "hardware description",
                     buffer.getError().message()),
         0, 0});
    return result;
  }
  return parseDescription((*buffer)->getBuffer(), path, options);
}

} // namespace strata::hw
