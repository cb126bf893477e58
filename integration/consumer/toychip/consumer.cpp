//===- consumer.cpp - A vendor tool built on Strata -----------------------===//
//
//   consumer DESCRIPTION.json [PLUGIN.so]
//
// Registers the statically built plugins (and PLUGIN.so if given), then
// validates the description against them and prints what it found.
//
//===----------------------------------------------------------------------===//
#include "strata/Target/TargetRegistry.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: consumer DESCRIPTION.json [PLUGIN.so]\n";
    return 1;
  }
  strata::TargetRegistry &registry = strata::TargetRegistry::get();
  strata::registerStaticTargets(registry);
  if (argc > 2)
    if (llvm::Error err = registry.loadPluginLibrary(argv[2])) {
      llvm::errs() << llvm::toString(std::move(err)) << "\n";
      return 1;
    }
  llvm::outs() << "plugins:";
  for (const std::string &name : registry.pluginNames())
    llvm::outs() << " " << name;
  llvm::outs() << "\n";
  strata::hw::LoadResult chip = registry.resolve(argv[1]);
  if (!chip) {
    llvm::errs() << chip.formatErrors();
    return 1;
  }
  llvm::outs() << "chip " << chip.description->name << " uses plugin "
               << chip.description->plugin << "\n";
  return 0;
}
