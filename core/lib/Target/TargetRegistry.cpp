//===- TargetRegistry.cpp - Plugins by name, chips by name ----------------===//
#include "strata/Target/TargetRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace strata;

TargetPlugin::~TargetPlugin() = default;

// Never destroyed: plugins loaded from shared libraries may be unmapped
// before static destructors run, and their objects must not be called then.
TargetRegistry &TargetRegistry::get() {
  static TargetRegistry *registry = new TargetRegistry;
  return *registry;
}

llvm::Error TargetRegistry::add(std::unique_ptr<TargetPlugin> plugin) {
  if (lookup(plugin->getName()))
    return llvm::createStringError(llvm::formatv(
        "target plugin '{0}' is registered twice", plugin->getName()));
  pluginList.push_back(std::move(plugin));
  return llvm::Error::success();
}

llvm::Error TargetRegistry::loadPluginLibrary(llvm::StringRef path) {
  std::string message;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      path.str().c_str(), &message);
  if (!library.isValid())
    return llvm::createStringError(
        llvm::formatv("--load-plugin: cannot load '{0}': {1}", path, message));
  void *entry = library.getAddressOfSymbol("strataRegisterPlugin");
  if (!entry)
    return llvm::createStringError(llvm::formatv(
        "--load-plugin: '{0}' does not export strataRegisterPlugin (build it "
        "with strata_add_target(... MODULE))",
        path));
  size_t before = pluginList.size();
  reinterpret_cast<void (*)(TargetRegistry *)>(entry)(this);
  if (pluginList.size() == before)
    return llvm::createStringError(llvm::formatv(
        "--load-plugin: '{0}' registered no new plugin (name taken?)", path));
  return llvm::Error::success();
}

const TargetPlugin *TargetRegistry::lookup(llvm::StringRef name) const {
  for (const auto &plugin : pluginList)
    if (plugin->getName() == name)
      return plugin.get();
  return nullptr;
}

std::vector<std::string> TargetRegistry::pluginNames() const {
  std::vector<std::string> names;
  for (const auto &plugin : pluginList)
    names.push_back(plugin->getName().str());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<const TargetPlugin *> TargetRegistry::plugins() const {
  std::vector<const TargetPlugin *> result;
  for (const auto &plugin : pluginList)
    result.push_back(plugin.get());
  return result;
}

void TargetRegistry::registerDialects(mlir::DialectRegistry &registry) const {
  for (const auto &plugin : pluginList)
    plugin->registerDialects(registry);
}

void TargetRegistry::finishValidation(hw::LoadResult &result) const {
  if (!result.description)
    return;
  const TargetPlugin *plugin = lookup(result.description->plugin);
  if (!plugin)
    return;
  std::vector<hw::Diagnostic> errors;
  plugin->validateDescription(*result.description, errors);
  if (errors.empty())
    return;
  result.errors.insert(result.errors.end(), errors.begin(), errors.end());
  result.description.reset();
}

hw::LoadOptions TargetRegistry::loadOptions(bool requirePlugin) const {
  hw::LoadOptions options;
  if (requirePlugin)
    options.knownPlugins = pluginNames();
  return options;
}

hw::LoadResult TargetRegistry::validate(const nlohmann::json &doc,
                                        llvm::StringRef sourceName,
                                        bool requirePlugin) const {
  hw::LoadResult result =
      hw::loadDescriptionJson(doc, sourceName, loadOptions(requirePlugin));
  finishValidation(result);
  return result;
}

hw::LoadResult TargetRegistry::validateText(llvm::StringRef text,
                                            llvm::StringRef sourceName,
                                            bool requirePlugin) const {
  hw::LoadResult result =
      hw::parseDescription(text, sourceName, loadOptions(requirePlugin));
  finishValidation(result);
  return result;
}

/// A failed LoadResult with one document-level error.
static hw::LoadResult failure(llvm::StringRef source, std::string message) {
  hw::LoadResult result;
  result.sourceName = source.str();
  result.errors.push_back({"", std::move(message), 0, 0});
  return result;
}

hw::LoadResult TargetRegistry::resolve(llvm::StringRef target,
                                       bool requirePlugin) const {
  if (target.empty())
    return failure("target", "no target given; expected a description "
                             "name, a .json file or 'host'");
  if (target == "host") {
    for (const auto &plugin : pluginList)
      if (std::optional<std::string> text = plugin->describeHost())
        return validateText(*text, "<host>", requirePlugin);
    return failure("host", "no registered plugin can describe this host");
  }
  if (target.ends_with(".json") || target.contains('/')) {
    hw::LoadResult result =
        hw::loadDescriptionFile(target, loadOptions(requirePlugin));
    finishValidation(result);
    return result;
  }
  if (std::optional<std::string> text = hw::shippedDescriptionText(target))
    return validateText(*text, ("<" + target + ">").str(), requirePlugin);
  std::string known = "host";
  for (const std::string &name : hw::shippedDescriptionNames())
    known += ", " + name;
  return failure(target, llvm::formatv("unknown target '{0}'; expected "
                                       "one of: {1}, or a path to a "
                                       ".json description",
                                       target, known)
                             .str());
}
