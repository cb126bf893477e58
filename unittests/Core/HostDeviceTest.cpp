//===- HostDeviceTest.cpp - The runtime API end to end on the host --------===//
//
// Compiles a small tensor function for `host` through the core stages and the
// cpu plugin, then loads, launches and times it through the Device API.
//
//===----------------------------------------------------------------------===//
#include "strata/Pipeline/Compiler.h"
#include "strata/Runtime/Check.h"
#include "strata/Runtime/Device.h"
#include "strata/Target/TargetRegistry.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"

#include <gtest/gtest.h>

using namespace strata;

namespace {

constexpr const char *kProgram = R"mlir(
func.func @axpy(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<2x3xf32>, tensor<2x3xf32>)
      outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c2 = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c2 : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
)mlir";

TEST(HostDevice, CompileLoadLaunch) {
  TargetRegistry &targets = TargetRegistry::get();
  if (!targets.lookup("cpu"))
    registerStaticTargets(targets);
  hw::LoadResult chip = targets.resolve("host");
  ASSERT_TRUE(chip) << chip.formatErrors();
  const TargetPlugin &plugin = *targets.lookup("cpu");

  mlir::DialectRegistry registry;
  registerStrataDialects(registry);
  mlir::MLIRContext ctx(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &ctx);
  ASSERT_TRUE(module);
  auto signature =
      runtime::signatureOf(*module->getOps<mlir::func::FuncOp>().begin());
  ASSERT_TRUE(bool(signature));
  ASSERT_EQ(signature->inputs.size(), 2u);
  ASSERT_EQ(signature->outputs.size(), 1u);

  ASSERT_TRUE(mlir::succeeded(runCoreStages(*module, *chip.description)));
  ASSERT_TRUE(
      mlir::succeeded(runPluginLowering(*module, plugin, *chip.description)));
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("axpy", "so", path));
  llvm::FileRemover remove(path);
  ASSERT_FALSE(bool(plugin.writeArtifact(*module, *chip.description,
                                         EmitKind::Library, path)));

  auto device = plugin.createDevice(*chip.description);
  ASSERT_TRUE(bool(device));
  auto executable = (*device)->load(path);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  EXPECT_TRUE((*executable)->hasFunction("axpy"));
  EXPECT_FALSE((*executable)->hasFunction("nope"));

  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {6, 5, 4, 3, 2, 1}, out(6);
  std::vector<std::unique_ptr<runtime::Buffer>> buffers;
  for (int i = 0; i < 3; ++i)
    buffers.push_back(std::move(*(*device)->allocate(6 * sizeof(float))));
  ASSERT_FALSE(bool((*device)->copyToDevice(*buffers[0], x.data(), 24)));
  ASSERT_FALSE(bool((*device)->copyToDevice(*buffers[1], y.data(), 24)));
  std::vector<runtime::Buffer *> args = {buffers[0].get(), buffers[1].get(),
                                         buffers[2].get()};
  auto timer = (*device)->createTimer();
  timer->start();
  ASSERT_FALSE(bool((*device)->launch(**executable, *signature, args)));
  EXPECT_GE(timer->stop(), 0.0);
  ASSERT_FALSE(bool((*device)->copyToHost(out.data(), *buffers[2], 24)));
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(out[i], 2 * x[i] + y[i]);

  // A launch with the wrong number of buffers is refused, not run.
  llvm::Error err = (*device)->launch(**executable, *signature,
                                      llvm::ArrayRef(args).drop_back());
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("takes 3 buffers"),
            std::string::npos);
}

} // namespace
