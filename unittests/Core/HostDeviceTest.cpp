//===- HostDeviceTest.cpp - The runtime API end to end on the host --------===//
//
// Compiles small tensor functions for `host` through the core stages and the
// cpu plugin, then loads, launches and times them through the Device API.
//
//===----------------------------------------------------------------------===//
#include "strata/Pipeline/Compiler.h"
#include "strata/Runtime/Check.h"
#include "strata/Runtime/Device.h"
#include "strata/Target/TargetRegistry.h"
#include "strata/rt/HostAllocator.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

/// A program compiled for `host`, written as a library and loaded.
struct Loaded {
  std::unique_ptr<runtime::Device> device;
  std::unique_ptr<runtime::Executable> executable;
  runtime::Signature signature;
  llvm::SmallString<128> path;
  ~Loaded() {
    executable.reset();
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

void compileAndLoad(const char *program, Loaded &out) {
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
      mlir::parseSourceString<mlir::ModuleOp>(program, &ctx);
  ASSERT_TRUE(module);
  auto signature =
      runtime::signatureOf(*module->getOps<mlir::func::FuncOp>().begin());
  ASSERT_TRUE(bool(signature));
  out.signature = *signature;

  ASSERT_TRUE(mlir::succeeded(runCoreStages(*module, *chip.description)));
  ASSERT_TRUE(
      mlir::succeeded(runPluginLowering(*module, plugin, *chip.description)));
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("program", "so", out.path));
  ASSERT_FALSE(bool(plugin.writeArtifact(*module, *chip.description,
                                         EmitKind::Library, out.path)));

  auto device = plugin.createDevice(*chip.description);
  ASSERT_TRUE(bool(device));
  out.device = std::move(*device);
  auto executable = out.device->load(out.path);
  ASSERT_TRUE(bool(executable)) << llvm::toString(executable.takeError());
  out.executable = std::move(*executable);
}

TEST(HostDevice, CompileLoadLaunch) {
  Loaded p;
  compileAndLoad(kProgram, p);
  ASSERT_TRUE(p.executable);
  ASSERT_EQ(p.signature.inputs.size(), 2u);
  ASSERT_EQ(p.signature.outputs.size(), 1u);
  EXPECT_TRUE(p.executable->hasFunction("axpy"));
  EXPECT_FALSE(p.executable->hasFunction("nope"));

  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {6, 5, 4, 3, 2, 1}, out(6);
  std::vector<std::unique_ptr<runtime::Buffer>> buffers;
  for (int i = 0; i < 3; ++i)
    buffers.push_back(std::move(*p.device->allocate(6 * sizeof(float))));
  ASSERT_FALSE(bool(p.device->copyToDevice(*buffers[0], x.data(), 24)));
  ASSERT_FALSE(bool(p.device->copyToDevice(*buffers[1], y.data(), 24)));
  std::vector<runtime::Buffer *> args = {buffers[0].get(), buffers[1].get(),
                                         buffers[2].get()};
  auto timer = p.device->createTimer();
  timer->start();
  ASSERT_FALSE(bool(p.device->launch(*p.executable, p.signature, args)));
  EXPECT_GE(timer->stop(), 0.0);
  ASSERT_FALSE(bool(p.device->copyToHost(out.data(), *buffers[2], 24)));
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(out[i], 2 * x[i] + y[i]);

  // A launch with the wrong number of buffers is refused, not run.
  llvm::Error err = p.device->launch(*p.executable, p.signature,
                                     llvm::ArrayRef(args).drop_back());
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("takes 3 buffers"),
            std::string::npos);
}

/// Two products in a row: the first's 384x384 result is a temporary.
constexpr const char *kChain = R"mlir(
func.func @chain(%a: tensor<384x384xf32>, %b: tensor<384x384xf32>)
    -> tensor<384x384xf32> {
  %e = tensor.empty() : tensor<384x384xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<384x384xf32>)
      -> tensor<384x384xf32>
  %m = linalg.matmul ins(%a, %b : tensor<384x384xf32>, tensor<384x384xf32>)
      outs(%f : tensor<384x384xf32>) -> tensor<384x384xf32>
  %r = linalg.matmul ins(%m, %b : tensor<384x384xf32>, tensor<384x384xf32>)
      outs(%f : tensor<384x384xf32>) -> tensor<384x384xf32>
  return %r : tensor<384x384xf32>
}
)mlir";

// The runtime installs its allocator in the libraries it loads: the
// temporary freed by a call is kept for the next, which computes the same.
TEST(HostDevice, TemporariesKeptBetweenCalls) {
  constexpr int n = 384;
  constexpr size_t bytes = size_t(n) * n * sizeof(float);
  Loaded p;
  compileAndLoad(kChain, p);
  ASSERT_TRUE(p.executable);

  std::vector<float> a(n * n), b(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = float((i * 7) % 13) / 13 - 0.5f;
    b[i] = float((i * 5) % 11) / 11 - 0.5f;
  }
  std::vector<double> m(n * n, 0.0), ref(n * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        m[i * n + j] += double(a[i * n + k]) * b[k * n + j];
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        ref[i * n + j] += m[i * n + k] * b[k * n + j];

  std::vector<std::unique_ptr<runtime::Buffer>> buffers;
  for (int i = 0; i < 3; ++i)
    buffers.push_back(std::move(*p.device->allocate(bytes)));
  ASSERT_FALSE(bool(p.device->copyToDevice(*buffers[0], a.data(), bytes)));
  ASSERT_FALSE(bool(p.device->copyToDevice(*buffers[1], b.data(), bytes)));
  std::vector<runtime::Buffer *> args = {buffers[0].get(), buffers[1].get(),
                                         buffers[2].get()};
  size_t before = rt::hostTemporaryCachedBytes(), first = 0;
  for (int call = 0; call < 3; ++call) {
    std::fill(out.begin(), out.end(), 0.0f);
    ASSERT_FALSE(bool(p.device->copyToDevice(*buffers[2], out.data(), bytes)));
    ASSERT_FALSE(bool(p.device->launch(*p.executable, p.signature, args)));
    ASSERT_FALSE(bool(p.device->copyToHost(out.data(), *buffers[2], bytes)));
    double err = 0, norm = 0;
    for (int i = 0; i < n * n; ++i) {
      err += (out[i] - ref[i]) * (out[i] - ref[i]);
      norm += ref[i] * ref[i];
    }
    EXPECT_LT(std::sqrt(err / norm), 1e-5) << "call " << call;
    // The temporaries are back in the pool after every call, not in the
    // system's hands; the next call takes them out again.
    size_t cached = rt::hostTemporaryCachedBytes();
    if (call == 0)
      EXPECT_GE(cached, before + bytes);
    else
      EXPECT_EQ(cached, first);
    first = cached;
  }
}

} // namespace
