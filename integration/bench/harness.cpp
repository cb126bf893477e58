// Strata CPU benchmark harness.
//
// Times one workload compiled by strata-compile (a shared library exporting
// _mlir_ciface_<fn>, docs/abi.md) and its anchors in one process, on the same
// inputs:
//   matmul     OpenBLAS cblas_sgemm, oneDNN dnnl_sgemm
//   mlp        OpenBLAS sgemm (and dnnl_sgemm) followed by a separate
//              bias+GELU pass
//   attention  per head: sgemm Q*K^T, a separate scale+softmax pass, sgemm P*V
//   attention_causal
//              the same with the softmax over the keys up to the query's
//              (the others 0), as is_causal=True masks them
//   conv       oneDNN convolution (NHWC activations, weights reordered once
//              into oneDNN's preferred layout outside the timed region)
//   softmax, layernorm, eltwise
//              a STREAM-like triad measured here (bandwidth-bound ops are
//              judged by achieved GB/s of compulsory traffic)
// Strata's result is checked against the anchor (compute-bound ops) or a
// naive double-precision C++ reference (bandwidth-bound ops).
//
// Prints one JSON object on stdout; progress goes to stderr. bench.py drives
// it; see README.md.

#include <cblas.h>
#include <dlfcn.h>
#include <oneapi/dnnl/dnnl.h>
#include <sys/mman.h>

#if defined(__AVX512F__)
#include <immintrin.h>
// glibc's libmvec: 16-lane erff (GLIBC_2.35).
extern "C" __m512 _ZGVeN16v_erff(__m512);
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Buffers and memref descriptors
//===----------------------------------------------------------------------===//

constexpr size_t kHugePage = size_t(2) << 20;

// 64-byte aligned; buffers of 2 MiB or more are 2 MiB aligned and advised
// to use transparent huge pages, so that first touch is cheap.
float *allocFloats(size_t n) {
  size_t bytes = std::max<size_t>(n * sizeof(float), 64);
  size_t align = bytes >= kHugePage ? kHugePage : 64;
  bytes = (bytes + align - 1) / align * align;
  void *p = std::aligned_alloc(align, bytes);
  if (!p) {
    std::fprintf(stderr, "harness: out of memory (%zu bytes)\n", bytes);
    std::exit(2);
  }
  if (align == kHugePage)
    madvise(p, bytes, MADV_HUGEPAGE);
  return static_cast<float *>(p);
}

struct FreeDeleter {
  void operator()(float *p) const { std::free(p); }
};

// A dense row-major f32 tensor with its memref descriptor. The descriptor's
// prefix matches the ABI's struct for any rank up to 8.
struct Tensor {
  std::vector<int64_t> shape;
  size_t n = 0;
  std::unique_ptr<float, FreeDeleter> buf;
  struct Desc {
    float *allocated;
    float *aligned;
    int64_t offset;
    int64_t sizesAndStrides[16];
  } desc{};

  explicit Tensor(std::vector<int64_t> s) : shape(std::move(s)) {
    n = 1;
    for (int64_t d : shape)
      n *= size_t(d);
    buf.reset(allocFloats(n));
    desc.allocated = desc.aligned = buf.get();
    desc.offset = 0;
    int r = int(shape.size());
    int64_t stride = 1;
    for (int i = r - 1; i >= 0; --i) {
      desc.sizesAndStrides[i] = shape[i];
      desc.sizesAndStrides[r + i] = stride;
      stride *= shape[i];
    }
  }
  float *data() const { return buf.get(); }
  std::string shapeStr() const {
    std::string s;
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? "x" : "") + std::to_string(shape[i]);
    return s + "xf32";
  }
};

using TensorPtr = std::shared_ptr<Tensor>;
TensorPtr makeTensor(std::vector<int64_t> shape) {
  return std::make_shared<Tensor>(std::move(shape));
}

// splitmix64: fast, seeded, reproducible.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * float(next() >> 40) * (1.0f / float(1 << 24));
  }
};

void fillRandom(Tensor &t, Rng &rng, float lo, float hi) {
  float *p = t.data();
  for (size_t i = 0; i < t.n; ++i)
    p[i] = rng.uniform(lo, hi);
}

void poison(Tensor &t) {
  std::fill(t.data(), t.data() + t.n, std::numeric_limits<float>::quiet_NaN());
}

// Relative L2 error of `got` against `want`; NaN or Inf in `got` gives +inf.
double relL2(const Tensor &got, const Tensor &want) {
  double num = 0, den = 0;
  const float *g = got.data(), *w = want.data();
  for (size_t i = 0; i < got.n; ++i) {
    if (!std::isfinite(g[i]))
      return std::numeric_limits<double>::infinity();
    double d = double(g[i]) - double(w[i]);
    num += d * d;
    den += double(w[i]) * double(w[i]);
  }
  if (den == 0)
    return num == 0 ? 0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double median(std::vector<double> v) {
  if (v.empty())
    return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Seconds of untimed calls before timing starts. One call is not enough:
// here a two-thread library ran its first ~15 ms of calls at half speed
// (0.31 ms, then 0.13 ms per call), while the idle second vCPU warmed up.
constexpr double kWarmUpSeconds = 0.1;

// Calls `f` again until kWarmUpSeconds have passed since `start` (nothing
// more when one call alone takes that long).
void warmUp(const std::function<void()> &f, double start) {
  while (now() - start < kWarmUpSeconds)
    f();
}

// Warm-up calls (the first one timed), then up to `reps` timed calls that
// fit in `budget` seconds (at least one). Appends the timed samples to
// `samples`.
double timeRuns(const std::function<void()> &f, int reps, double budget,
                std::vector<double> &samples) {
  double t0 = now();
  f();
  double warm = now() - t0;
  warmUp(f, t0);
  int n = reps;
  if (warm > 0)
    n = int(std::min<double>(reps, std::max(1.0, std::floor(budget / warm))));
  n = std::max(n, 1);
  for (int i = 0; i < n; ++i) {
    double t = now();
    f();
    samples.push_back(now() - t);
  }
  return warm;
}

// Lets spinning worker threads of the previous library go idle before the
// next measurement starts.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(200)); }

//===----------------------------------------------------------------------===//
// STREAM-like triad: a[i] = b[i] + s * c[i], 3 arrays of 128 MiB (4x the
// 32 MiB L3), 12 bytes of compulsory traffic per element.
//===----------------------------------------------------------------------===//

struct Triad {
  size_t n;
  int threads;
  std::unique_ptr<float, FreeDeleter> a, b, c;
  Triad(size_t n, int threads) : n(n), threads(threads) {
    a.reset(allocFloats(n));
    b.reset(allocFloats(n));
    c.reset(allocFloats(n));
    forEachChunk([&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) {
        a.get()[i] = 0;
        b.get()[i] = 1;
        c.get()[i] = 2;
      }
    });
  }
  template <typename F> void forEachChunk(F f) {
    if (threads <= 1) {
      f(0, n);
      return;
    }
    std::vector<std::thread> ts;
    size_t chunk = (n / threads + 15) / 16 * 16;
    for (int t = 0; t < threads; ++t) {
      size_t lo = std::min(n, t * chunk), hi = std::min(n, lo + chunk);
      ts.emplace_back([=] { f(lo, hi); });
    }
    for (auto &t : ts)
      t.join();
  }
  void run() {
    float *__restrict pa = a.get();
    const float *__restrict pb = b.get();
    const float *__restrict pc = c.get();
    const float s = 3.0f;
    forEachChunk([=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i)
        pa[i] = pb[i] + s * pc[i];
    });
  }
  double bytes() const { return 3.0 * sizeof(float) * double(n); }
};

//===----------------------------------------------------------------------===//
// Anchor and reference kernels
//===----------------------------------------------------------------------===//

// Row-major C[MxN] = A[MxK] * B[KxN].
void blasGemm(const float *a, const float *b, float *c, int64_t m, int64_t n,
              int64_t k) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(m), blasint(n),
              blasint(k), 1.0f, a, blasint(k), b, blasint(n), 0.0f, c,
              blasint(n));
}

bool dnnlGemm(const float *a, const float *b, float *c, int64_t m, int64_t n,
              int64_t k) {
  return dnnl_sgemm('N', 'N', m, n, k, 1.0f, a, k, b, n, 0.0f, c, n) ==
         dnnl_success;
}

// The MLP epilogue, a separate pass over the GEMM result: y = gelu(h + b)
// with the erf form of GELU, vectorized with libmvec's erff where the
// target has AVX-512.
void biasGelu(float *__restrict y, const float *__restrict bias, int64_t m,
              int64_t n) {
  for (int64_t i = 0; i < m; ++i) {
    float *__restrict row = y + i * n;
    int64_t j = 0;
#if defined(__AVX512F__)
    const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f),
                 rsqrt2 = _mm512_set1_ps(0.70710678118654752f);
    for (; j + 16 <= n; j += 16) {
      __m512 h =
          _mm512_add_ps(_mm512_loadu_ps(row + j), _mm512_loadu_ps(bias + j));
      __m512 e = _ZGVeN16v_erff(_mm512_mul_ps(h, rsqrt2));
      _mm512_storeu_ps(row + j, _mm512_mul_ps(_mm512_mul_ps(half, h),
                                              _mm512_add_ps(one, e)));
    }
#endif
    for (; j < n; ++j) {
      float h = row[j] + bias[j];
      row[j] = 0.5f * h * (1.0f + erff(h * 0.70710678118654752f));
    }
  }
}

// In-place row softmax of s[rows x cols] after scaling by `scale`; the
// reductions may be reassociated (vectorized), exp comes from libmvec.
void scaledSoftmaxRows(float *__restrict s, int64_t rows, int64_t allCols,
                       float scale, bool causal = false) {
  for (int64_t i = 0; i < rows; ++i) {
    float *__restrict row = s + i * allCols;
    // Causal: keys after the query get probability 0.
    int64_t cols = causal ? std::min(i + 1, allCols) : allCols;
    std::fill(row + cols, row + allCols, 0.0f);
    // Row max with 16 independent lanes (vectorizes without reassociation).
    float lanes[16];
    std::fill(lanes, lanes + 16, -std::numeric_limits<float>::infinity());
    int64_t j0 = 0;
    for (; j0 + 16 <= cols; j0 += 16)
      for (int l = 0; l < 16; ++l)
        lanes[l] = std::max(lanes[l], row[j0 + l]);
    for (; j0 < cols; ++j0)
      lanes[0] = std::max(lanes[0], row[j0]);
    float mx = *std::max_element(lanes, lanes + 16);
    mx *= scale; // scale > 0
    for (int64_t j = 0; j < cols; ++j)
      row[j] = expf(row[j] * scale - mx);
    float sum = 0;
#pragma clang loop vectorize(enable)
    for (int64_t j = 0; j < cols; ++j)
      sum += row[j];
    float inv = 1.0f / sum;
    for (int64_t j = 0; j < cols; ++j)
      row[j] *= inv;
  }
}

void refSoftmax(const float *x, float *y, int64_t r, int64_t c) {
  for (int64_t i = 0; i < r; ++i) {
    const float *xr = x + i * c;
    float *yr = y + i * c;
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < c; ++j)
      mx = std::max(mx, double(xr[j]));
    double sum = 0;
    for (int64_t j = 0; j < c; ++j)
      sum += std::exp(double(xr[j]) - mx);
    for (int64_t j = 0; j < c; ++j)
      yr[j] = float(std::exp(double(xr[j]) - mx) / sum);
  }
}

void refLayernorm(const float *x, const float *g, const float *b, float *y,
                  int64_t r, int64_t c, double eps) {
  for (int64_t i = 0; i < r; ++i) {
    const float *xr = x + i * c;
    double mean = 0;
    for (int64_t j = 0; j < c; ++j)
      mean += xr[j];
    mean /= double(c);
    double var = 0;
    for (int64_t j = 0; j < c; ++j)
      var += (xr[j] - mean) * (xr[j] - mean);
    var /= double(c);
    double inv = 1.0 / std::sqrt(var + eps);
    for (int64_t j = 0; j < c; ++j)
      y[i * c + j] = float((xr[j] - mean) * inv * g[j] + b[j]);
  }
}

// out = max((x - y) * s[col] + t[row], 0)
void refEltwise(const float *x, const float *y, const float *s, const float *t,
                float *out, int64_t r, int64_t c) {
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) {
      double v = (double(x[i * c + j]) - double(y[i * c + j])) * s[j] + t[i];
      out[i * c + j] = float(std::max(v, 0.0));
    }
}

//===----------------------------------------------------------------------===//
// oneDNN convolution (C API)
//===----------------------------------------------------------------------===//

#define DNNL_TRY(call)                                                         \
  do {                                                                         \
    dnnl_status_t st_ = (call);                                                \
    if (st_ != dnnl_success) {                                                 \
      error = std::string(#call) + " failed with status " +                    \
              std::to_string(int(st_));                                        \
      return false;                                                            \
    }                                                                          \
  } while (0)

struct DnnlConv {
  dnnl_engine_t engine = nullptr;
  dnnl_stream_t stream = nullptr;
  dnnl_primitive_desc_t pd = nullptr;
  dnnl_primitive_t conv = nullptr;
  dnnl_memory_t src = nullptr, wts = nullptr, dst = nullptr;
  std::unique_ptr<float, FreeDeleter> wtsBuf;
  std::string error, impl;

  // in: N x IH x IW x C (NHWC), w: KH x KW x C x F (HWCF),
  // out: N x OH x OW x F (NHWC); stride 1, no padding.
  bool init(float *in, float *w, float *out, int64_t n, int64_t ih, int64_t iw,
            int64_t c, int64_t kh, int64_t kw, int64_t f) {
    int64_t oh = ih - kh + 1, ow = iw - kw + 1;
    DNNL_TRY(dnnl_engine_create(&engine, dnnl_cpu, 0));
    DNNL_TRY(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
    dnnl_dims_t srcDims = {n, c, ih, iw}, wDims = {f, c, kh, kw},
                dstDims = {n, f, oh, ow};
    dnnl_memory_desc_t srcMd, wAnyMd, wUserMd, dstMd;
    DNNL_TRY(
        dnnl_memory_desc_init_by_tag(&srcMd, 4, srcDims, dnnl_f32, dnnl_nhwc));
    DNNL_TRY(dnnl_memory_desc_init_by_tag(&wAnyMd, 4, wDims, dnnl_f32,
                                          dnnl_format_tag_any));
    DNNL_TRY(
        dnnl_memory_desc_init_by_tag(&wUserMd, 4, wDims, dnnl_f32, dnnl_hwio));
    DNNL_TRY(
        dnnl_memory_desc_init_by_tag(&dstMd, 4, dstDims, dnnl_f32, dnnl_nhwc));
    dnnl_dims_t strides = {1, 1}, pad = {0, 0};
    dnnl_convolution_desc_t cd;
    DNNL_TRY(dnnl_convolution_forward_desc_init(
        &cd, dnnl_forward_inference, dnnl_convolution_direct, &srcMd, &wAnyMd,
        nullptr, &dstMd, strides, pad, pad));
    DNNL_TRY(dnnl_primitive_desc_create(&pd, &cd, nullptr, engine, nullptr));
    const char *info = nullptr;
    if (dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &info) ==
            dnnl_success &&
        info)
      impl = info;
    const dnnl_memory_desc_t *wMd =
        dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
    DNNL_TRY(dnnl_primitive_create(&conv, pd));
    DNNL_TRY(dnnl_memory_create(&src, &srcMd, engine, in));
    DNNL_TRY(dnnl_memory_create(&dst, &dstMd, engine, out));
    // Weights: reorder once from HWCF (oneDNN's hwio) into the layout the
    // convolution asked for.
    size_t wBytes = dnnl_memory_desc_get_size(wMd);
    wtsBuf.reset(allocFloats(wBytes / sizeof(float) + 16));
    DNNL_TRY(dnnl_memory_create(&wts, wMd, engine, wtsBuf.get()));
    dnnl_memory_t wUser;
    DNNL_TRY(dnnl_memory_create(&wUser, &wUserMd, engine, w));
    dnnl_primitive_desc_t rpd;
    DNNL_TRY(dnnl_reorder_primitive_desc_create(&rpd, &wUserMd, engine, wMd,
                                                engine, nullptr));
    dnnl_primitive_t reorder;
    DNNL_TRY(dnnl_primitive_create(&reorder, rpd));
    dnnl_exec_arg_t rargs[2] = {{DNNL_ARG_FROM, wUser}, {DNNL_ARG_TO, wts}};
    DNNL_TRY(dnnl_primitive_execute(reorder, stream, 2, rargs));
    DNNL_TRY(dnnl_stream_wait(stream));
    dnnl_primitive_destroy(reorder);
    dnnl_primitive_desc_destroy(rpd);
    dnnl_memory_destroy(wUser);
    return true;
  }
  bool run() {
    dnnl_exec_arg_t args[3] = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, wts}, {DNNL_ARG_DST, dst}};
    DNNL_TRY(dnnl_primitive_execute(conv, stream, 3, args));
    DNNL_TRY(dnnl_stream_wait(stream));
    return true;
  }
  ~DnnlConv() {
    if (conv)
      dnnl_primitive_destroy(conv);
    if (pd)
      dnnl_primitive_desc_destroy(pd);
    for (dnnl_memory_t m : {src, wts, dst})
      if (m)
        dnnl_memory_destroy(m);
    if (stream)
      dnnl_stream_destroy(stream);
    if (engine)
      dnnl_engine_destroy(engine);
  }
};

//===----------------------------------------------------------------------===//
// Strata library calls
//===----------------------------------------------------------------------===//

using P = void *;
void callCiface(void *sym, const std::vector<P> &a) {
  switch (a.size()) {
  case 1:
    return reinterpret_cast<void (*)(P)>(sym)(a[0]);
  case 2:
    return reinterpret_cast<void (*)(P, P)>(sym)(a[0], a[1]);
  case 3:
    return reinterpret_cast<void (*)(P, P, P)>(sym)(a[0], a[1], a[2]);
  case 4:
    return reinterpret_cast<void (*)(P, P, P, P)>(sym)(a[0], a[1], a[2], a[3]);
  case 5:
    return reinterpret_cast<void (*)(P, P, P, P, P)>(sym)(a[0], a[1], a[2],
                                                          a[3], a[4]);
  case 6:
    return reinterpret_cast<void (*)(P, P, P, P, P, P)>(sym)(a[0], a[1], a[2],
                                                             a[3], a[4], a[5]);
  default:
    std::fprintf(stderr, "harness: %zu arguments not supported\n", a.size());
    std::exit(2);
  }
}

//===----------------------------------------------------------------------===//
// JSON output
//===----------------------------------------------------------------------===//

std::string jsonStr(const std::string &s) {
  std::string o = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\')
      o += '\\', o += ch;
    else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      o += buf;
    } else
      o += ch;
  }
  return o + "\"";
}

std::string jsonNum(double v) {
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string jsonArray(const std::vector<double> &values) {
  std::string o = "[";
  for (size_t i = 0; i < values.size(); ++i)
    o += (i ? ", " : "") + jsonNum(values[i]);
  return o + "]";
}

struct JsonObj {
  std::vector<std::pair<std::string, std::string>> kv;
  JsonObj &num(const std::string &k, double v) {
    kv.emplace_back(k, jsonNum(v));
    return *this;
  }
  JsonObj &str(const std::string &k, const std::string &v) {
    kv.emplace_back(k, jsonStr(v));
    return *this;
  }
  JsonObj &boolean(const std::string &k, bool v) {
    kv.emplace_back(k, v ? "true" : "false");
    return *this;
  }
  JsonObj &raw(const std::string &k, const std::string &v) {
    kv.emplace_back(k, v);
    return *this;
  }
  std::string dump() const {
    std::string o = "{";
    for (size_t i = 0; i < kv.size(); ++i)
      o += (i ? ", " : "") + jsonStr(kv[i].first) + ": " + kv[i].second;
    return o + "}";
  }
};

//===----------------------------------------------------------------------===//
// Workloads
//===----------------------------------------------------------------------===//

struct Anchor {
  Anchor(std::string name, std::string note, std::function<bool()> run,
         TensorPtr out)
      : name(std::move(name)), note(std::move(note)), run(std::move(run)),
        out(std::move(out)) {}
  std::string name;
  std::string note;
  std::function<bool()> run; // false: the library reported an error
  TensorPtr out;             // what it writes (checked against the reference)
  std::vector<double> samples;
  double relErr = std::numeric_limits<double>::quiet_NaN();
  std::string error;
};

struct Workload {
  std::string kind;
  std::vector<int64_t> dims;
  double flops = 0; // useful FLOPs (GEMM-like work; 0 for bandwidth ops)
  double bytes = 0; // compulsory DRAM traffic: inputs read once, outputs
                    // written once
  bool bandwidthBound = false;
  std::vector<TensorPtr> inputs, outputs; // Strata's arguments
  TensorPtr ref;                          // reference for outputs[0]
  std::string refName;                    // what produced `ref`
  std::vector<Anchor> anchors;
  std::function<void()> makeRef; // fills `ref` when no anchor provides it
  std::shared_ptr<void> keepAlive;
};

double bytesOf(const std::vector<TensorPtr> &ts) {
  double b = 0;
  for (auto &t : ts)
    b += double(t->n) * sizeof(float);
  return b;
}

bool setupWorkload(Workload &w, Rng &rng, std::string &err) {
  const auto &d = w.dims;
  auto need = [&](size_t k) {
    if (d.size() != k) {
      err = w.kind + " takes " + std::to_string(k) + " dims";
      return false;
    }
    return true;
  };
  if (w.kind == "matmul") {
    if (!need(3))
      return false;
    int64_t m = d[0], n = d[1], k = d[2];
    auto a = makeTensor({m, k}), b = makeTensor({k, n});
    fillRandom(*a, rng, -1, 1);
    fillRandom(*b, rng, -1, 1);
    w.inputs = {a, b};
    w.outputs = {makeTensor({m, n})};
    w.flops = 2.0 * m * n * k;
    auto c1 = makeTensor({m, n}), c2 = makeTensor({m, n});
    w.anchors.push_back({"openblas_sgemm", "cblas_sgemm",
                         [=] {
                           blasGemm(a->data(), b->data(), c1->data(), m, n, k);
                           return true;
                         },
                         c1});
    w.anchors.push_back(
        {"dnnl_sgemm", "dnnl_sgemm",
         [=] { return dnnlGemm(a->data(), b->data(), c2->data(), m, n, k); },
         c2});
    w.ref = c1;
    w.refName = "openblas_sgemm";
  } else if (w.kind == "mlp") {
    if (!need(3))
      return false;
    int64_t m = d[0], k = d[1], n = d[2];
    auto x = makeTensor({m, k}), wt = makeTensor({k, n}), b = makeTensor({n});
    fillRandom(*x, rng, -1, 1);
    fillRandom(*wt, rng, -1, 1);
    fillRandom(*b, rng, -1, 1);
    w.inputs = {x, wt, b};
    w.outputs = {makeTensor({m, n})};
    w.flops = 2.0 * m * n * k;
    auto y1 = makeTensor({m, n}), y2 = makeTensor({m, n});
    w.anchors.push_back({"openblas_sgemm+gelu",
                         "cblas_sgemm, then a separate bias+GELU pass",
                         [=] {
                           blasGemm(x->data(), wt->data(), y1->data(), m, n, k);
                           biasGelu(y1->data(), b->data(), m, n);
                           return true;
                         },
                         y1});
    w.anchors.push_back(
        {"dnnl_sgemm+gelu", "dnnl_sgemm, then a separate bias+GELU pass",
         [=] {
           if (!dnnlGemm(x->data(), wt->data(), y2->data(), m, n, k))
             return false;
           biasGelu(y2->data(), b->data(), m, n);
           return true;
         },
         y2});
    w.ref = y1;
    w.refName = "openblas_sgemm+gelu";
  } else if (w.kind == "attention" || w.kind == "attention_causal") {
    if (!need(3))
      return false;
    int64_t bh = d[0], s = d[1], hd = d[2];
    auto q = makeTensor({bh, s, hd}), kk = makeTensor({bh, s, hd}),
         v = makeTensor({bh, s, hd});
    fillRandom(*q, rng, -1, 1);
    fillRandom(*kk, rng, -1, 1);
    fillRandom(*v, rng, -1, 1);
    w.inputs = {q, kk, v};
    w.outputs = {makeTensor({bh, s, hd})};
    w.flops = 4.0 * bh * s * s * hd;
    auto o = makeTensor({bh, s, hd});
    auto scratch = makeTensor({s, s}); // one head's scores, reused
    float scale = float(1.0 / std::sqrt(double(hd)));
    bool causal = w.kind == "attention_causal";
    w.anchors.push_back(
        {"openblas_attention",
         causal ? "per head: cblas_sgemm Q*K^T, a separate scale+causal "
                  "softmax pass, cblas_sgemm P*V"
                : "per head: cblas_sgemm Q*K^T, a separate scale+softmax "
                  "pass, cblas_sgemm P*V",
         [=] {
           for (int64_t h = 0; h < bh; ++h) {
             const float *qh = q->data() + h * s * hd;
             const float *kh = kk->data() + h * s * hd;
             const float *vh = v->data() + h * s * hd;
             cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, blasint(s),
                         blasint(s), blasint(hd), 1.0f, qh, blasint(hd), kh,
                         blasint(hd), 0.0f, scratch->data(), blasint(s));
             scaledSoftmaxRows(scratch->data(), s, s, scale, causal);
             cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blasint(s),
                         blasint(hd), blasint(s), 1.0f, scratch->data(),
                         blasint(s), vh, blasint(hd), 0.0f,
                         o->data() + h * s * hd, blasint(hd));
           }
           return true;
         },
         o});
    w.ref = o;
    w.refName = "openblas_attention";
  } else if (w.kind == "conv") {
    // dims: N, OH, OW, C, F, KH, KW; the input is pre-padded:
    // N x (OH+KH-1) x (OW+KW-1) x C.
    if (!need(7))
      return false;
    int64_t n = d[0], oh = d[1], ow = d[2], c = d[3], f = d[4], kh = d[5],
            kw = d[6];
    int64_t ih = oh + kh - 1, iw = ow + kw - 1;
    auto in = makeTensor({n, ih, iw, c}), wt = makeTensor({kh, kw, c, f});
    fillRandom(*in, rng, -1, 1);
    fillRandom(*wt, rng, -1, 1);
    w.inputs = {in, wt};
    w.outputs = {makeTensor({n, oh, ow, f})};
    w.flops = 2.0 * n * oh * ow * f * kh * kw * c;
    auto o = makeTensor({n, oh, ow, f});
    auto conv = std::make_shared<DnnlConv>();
    w.keepAlive = conv;
    if (conv->init(in->data(), wt->data(), o->data(), n, ih, iw, c, kh, kw,
                   f)) {
      w.anchors.push_back(
          {"dnnl_conv",
           "oneDNN convolution (" + conv->impl +
               "), NHWC, weights reordered once outside the timed region",
           [conv] { return conv->run(); }, o});
      w.ref = o;
      w.refName = "dnnl_conv";
    } else {
      // No oneDNN convolution: check against a naive loop nest instead.
      std::fprintf(stderr, "harness: oneDNN convolution unavailable: %s\n",
                   conv->error.c_str());
      w.ref = o;
      w.refName = "naive C++ convolution";
      w.makeRef = [=] {
        for (int64_t b = 0; b < n; ++b)
          for (int64_t y = 0; y < oh; ++y)
            for (int64_t x = 0; x < ow; ++x)
              for (int64_t co = 0; co < f; ++co) {
                double acc = 0;
                for (int64_t ky = 0; ky < kh; ++ky)
                  for (int64_t kx = 0; kx < kw; ++kx)
                    for (int64_t ci = 0; ci < c; ++ci)
                      acc +=
                          double(
                              in->data()[((b * ih + y + ky) * iw + x + kx) * c +
                                         ci]) *
                          wt->data()[((ky * kw + kx) * c + ci) * f + co];
                o->data()[((b * oh + y) * ow + x) * f + co] = float(acc);
              }
      };
    }
  } else if (w.kind == "softmax") {
    if (!need(2))
      return false;
    int64_t r = d[0], c = d[1];
    auto x = makeTensor({r, c});
    fillRandom(*x, rng, -4, 4);
    w.inputs = {x};
    w.outputs = {makeTensor({r, c})};
    w.bandwidthBound = true;
    w.ref = makeTensor({r, c});
    w.refName = "naive C++ (double)";
    auto ref = w.ref;
    w.makeRef = [=] { refSoftmax(x->data(), ref->data(), r, c); };
  } else if (w.kind == "layernorm") {
    if (!need(2))
      return false;
    int64_t r = d[0], c = d[1];
    auto x = makeTensor({r, c}), g = makeTensor({c}), b = makeTensor({c});
    fillRandom(*x, rng, -2, 2);
    fillRandom(*g, rng, 0.5, 1.5);
    fillRandom(*b, rng, -0.5, 0.5);
    w.inputs = {x, g, b};
    w.outputs = {makeTensor({r, c})};
    w.bandwidthBound = true;
    w.ref = makeTensor({r, c});
    w.refName = "naive C++ (double)";
    auto ref = w.ref;
    w.makeRef = [=] {
      refLayernorm(x->data(), g->data(), b->data(), ref->data(), r, c, 1e-5);
    };
  } else if (w.kind == "eltwise") {
    if (!need(2))
      return false;
    int64_t r = d[0], c = d[1];
    auto x = makeTensor({r, c}), y = makeTensor({r, c}), s = makeTensor({c}),
         t = makeTensor({r});
    fillRandom(*x, rng, -1, 1);
    fillRandom(*y, rng, -1, 1);
    fillRandom(*s, rng, -2, 2);
    fillRandom(*t, rng, -1, 1);
    w.inputs = {x, y, s, t};
    w.outputs = {makeTensor({r, c})};
    w.bandwidthBound = true;
    w.ref = makeTensor({r, c});
    w.refName = "naive C++ (double)";
    auto ref = w.ref;
    w.makeRef = [=] {
      refEltwise(x->data(), y->data(), s->data(), t->data(), ref->data(), r, c);
    };
  } else {
    err = "unknown kind '" + w.kind + "'";
    return false;
  }
  w.bytes = bytesOf(w.inputs) + bytesOf(w.outputs);
  return true;
}

void writeFile(const std::string &path, const Tensor &t) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(t.data()),
          std::streamsize(t.n * sizeof(float)));
}

// Raw little-endian f32 files plus meta.json, for peers to read the same
// inputs and check against the same reference.
void dumpWorkload(const Workload &w, const std::string &dir) {
  std::string meta = "{\"inputs\": [";
  for (size_t i = 0; i < w.inputs.size(); ++i) {
    std::string name = "in" + std::to_string(i) + ".bin";
    writeFile(dir + "/" + name, *w.inputs[i]);
    std::string shape;
    for (size_t j = 0; j < w.inputs[i]->shape.size(); ++j)
      shape += (j ? ", " : "") + std::to_string(w.inputs[i]->shape[j]);
    meta += std::string(i ? ", " : "") + "{\"file\": \"" + name +
            "\", \"shape\": [" + shape + "]}";
  }
  std::string shape;
  for (size_t j = 0; j < w.ref->shape.size(); ++j)
    shape += (j ? ", " : "") + std::to_string(w.ref->shape[j]);
  writeFile(dir + "/ref0.bin", *w.ref);
  meta += "], \"reference\": {\"file\": \"ref0.bin\", \"shape\": [" + shape +
          "], \"from\": " + jsonStr(w.refName) + "}}\n";
  std::ofstream(dir + "/meta.json") << meta;
}

std::vector<int64_t> parseDims(const std::string &s) {
  std::vector<int64_t> v;
  std::stringstream ss(s);
  std::string tok;
  while (std::getline(ss, tok, ','))
    v.push_back(std::stoll(tok));
  return v;
}

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: harness --kind K --dims D1,D2,... [--lib X.so --fn NAME]\n"
      "               [--threads T] [--reps N] [--budget SECONDS]\n"
      "               [--seed S] [--tol E] [--dump DIR] [--triad-mib M]\n"
      "               [--time all|strata|anchors]\n"
      "  kinds: matmul (M,N,K) mlp (M,K,N) attention|attention_causal "
      "(BH,S,D)\n"
      "         conv (N,OH,OW,C,F,KH,KW) softmax|layernorm|eltwise (R,C)\n"
      "  Without --lib only the anchors run. --time strata times Strata\n"
      "  alone (the reference is still computed), --time anchors the\n"
      "  anchors and the triad alone: each library in its own process, so\n"
      "  no runtime's idle threads compete with another's.\n");
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  std::string kind, dimsStr, lib, fn, dumpDir, timeWhat = "all";
  int threads = 1, reps = 10;
  double budget = 10, tol = 1e-4;
  uint64_t seed = 1;
  int triadMiB = 128;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc)
        usage();
      return argv[++i];
    };
    if (a == "--kind")
      kind = val();
    else if (a == "--dims")
      dimsStr = val();
    else if (a == "--lib")
      lib = val();
    else if (a == "--fn")
      fn = val();
    else if (a == "--threads")
      threads = std::stoi(val());
    else if (a == "--reps")
      reps = std::stoi(val());
    else if (a == "--budget")
      budget = std::stod(val());
    else if (a == "--seed")
      seed = std::stoull(val());
    else if (a == "--tol")
      tol = std::stod(val());
    else if (a == "--dump")
      dumpDir = val();
    else if (a == "--triad-mib")
      triadMiB = std::stoi(val());
    else if (a == "--time")
      timeWhat = val();
    else
      usage();
  }
  if (kind.empty() || dimsStr.empty() || reps < 1 || threads < 1 ||
      (timeWhat != "all" && timeWhat != "strata" && timeWhat != "anchors"))
    usage();
  bool timeAnchors = timeWhat != "strata";
  if (timeWhat == "anchors")
    lib.clear();

  openblas_set_num_threads(threads);
  const dnnl_version_t *dv = dnnl_version();
  char dnnlVer[64];
  std::snprintf(dnnlVer, sizeof dnnlVer, "%d.%d.%d", dv->major, dv->minor,
                dv->patch);
  JsonObj info;
  info.str("openblas_corename", openblas_get_corename())
      .str("openblas_config", openblas_get_config())
      .num("openblas_threads", openblas_get_num_threads())
      .str("dnnl_version", dnnlVer)
      .num("threads", threads);
  std::fprintf(stderr, "harness: OpenBLAS core %s (%d threads), oneDNN %s\n",
               openblas_get_corename(), openblas_get_num_threads(), dnnlVer);

  Workload w;
  w.kind = kind;
  w.dims = parseDims(dimsStr);
  Rng rng{seed};
  std::string err;
  if (!setupWorkload(w, rng, err)) {
    std::fprintf(stderr, "harness: %s\n", err.c_str());
    return 2;
  }

  // Reference output first: from the first anchor or the naive loop nest.
  if (w.makeRef) {
    w.makeRef();
  } else if (!w.anchors.empty() && !w.anchors[0].run()) {
    std::fprintf(stderr, "harness: the reference anchor %s failed\n",
                 w.anchors[0].name.c_str());
    return 2;
  }
  if (!dumpDir.empty())
    dumpWorkload(w, dumpDir);

  // Triad (bandwidth-bound workloads only: their anchor).
  std::unique_ptr<Triad> triad;
  std::vector<double> triadSamples;
  auto measureTriad = [&] {
    if (!triad || !timeAnchors)
      return;
    settle();
    timeRuns([&] { triad->run(); }, std::max(reps, 5), 2.0, triadSamples);
  };
  if (w.bandwidthBound)
    triad = std::make_unique<Triad>(size_t(triadMiB) << 18, threads);

  // Anchors: measured before and after Strata, samples pooled, so drift on
  // a shared machine does not favour either side.
  int half = std::max(1, (reps + 1) / 2);
  auto measureAnchors = [&] {
    if (!timeAnchors)
      return;
    for (auto &an : w.anchors) {
      if (!an.error.empty())
        continue;
      settle();
      bool ok = true;
      timeRuns([&] { ok = an.run() && ok; }, half, budget / 2, an.samples);
      if (!ok)
        an.error = "the library reported an error";
    }
  };
  measureTriad();
  measureAnchors();

  // Strata.
  JsonObj strata;
  if (!lib.empty()) {
    void *h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    void *sym = h ? dlsym(h, ("_mlir_ciface_" + fn).c_str()) : nullptr;
    if (!sym) {
      const char *e = dlerror();
      strata.str("status", "error")
          .str("error", std::string("cannot load: ") + (e ? e : "?"));
    } else {
      std::vector<void *> args;
      for (auto &t : w.inputs)
        args.push_back(&t->desc);
      for (auto &t : w.outputs) {
        poison(*t);
        args.push_back(&t->desc);
      }
      settle();
      std::vector<double> samples;
      std::fprintf(stderr, "harness: running Strata's %s\n", fn.c_str());
      // The warm-up call is also the checked call: outputs were poisoned
      // with NaN, so an element the callee does not write fails the check.
      double t0 = now();
      callCiface(sym, args);
      double warm = now() - t0;
      double firstErr = relL2(*w.outputs[0], *w.ref);
      warmUp([&] { callCiface(sym, args); }, t0);
      // A call that alone takes more than 3x the budget is timed once: the
      // warm-up is the only sample (reported as warmup_only).
      bool warmupOnly = warm > 3 * budget;
      int n = reps;
      if (warm > 0)
        n = int(
            std::min<double>(reps, std::max(1.0, std::floor(budget / warm))));
      if (warmupOnly)
        samples.push_back(warm);
      else
        for (int i = 0; i < n; ++i) {
          double t = now();
          callCiface(sym, args);
          samples.push_back(now() - t);
        }
      // Checked again after the timed calls (repeated calls must agree).
      double lastErr = relL2(*w.outputs[0], *w.ref);
      double med = median(samples);
      bool pass = firstErr <= tol && lastErr <= tol;
      strata.str("status", pass ? "ok" : "wrong")
          .num("warmup_s", warm)
          .num("median_s", med)
          .num("min_s", *std::min_element(samples.begin(), samples.end()))
          .num("runs", double(samples.size()))
          .raw("samples_s", jsonArray(samples))
          .boolean("warmup_only", warmupOnly)
          .num("rel_err", firstErr)
          .num("rel_err_after_runs", lastErr)
          .boolean("pass", pass)
          .str("checked_against", w.refName);
      std::fprintf(stderr,
                   "harness: Strata median %.3f ms over %zu runs, rel err "
                   "%.2e vs %s: %s\n",
                   med * 1e3, samples.size(), firstErr, w.refName.c_str(),
                   pass ? "PASS" : "FAIL");
    }
  } else {
    strata.str("status", "not run");
  }

  measureAnchors();
  measureTriad();

  // Results.
  std::string anchorsJson = "[";
  for (size_t i = 0; i < w.anchors.size(); ++i) {
    auto &an = w.anchors[i];
    an.relErr = relL2(*an.out, *w.ref);
    JsonObj o;
    o.str("name", an.name).str("note", an.note);
    if (!timeAnchors)
      o.boolean("timed", false);
    else if (an.error.empty())
      o.num("median_s", median(an.samples))
          .num("min_s", *std::min_element(an.samples.begin(), an.samples.end()))
          .num("runs", double(an.samples.size()))
          .raw("samples_s", jsonArray(an.samples))
          .num("rel_err_vs_reference", an.relErr);
    else
      o.str("error", an.error);
    anchorsJson += (i ? ", " : "") + o.dump();
  }
  anchorsJson += "]";
  JsonObj out;
  out.str("kind", w.kind)
      .str("dims", dimsStr)
      .num("flops", w.flops)
      .num("bytes", w.bytes)
      .boolean("bandwidth_bound", w.bandwidthBound)
      .str("reference", w.refName)
      .num("tolerance", tol)
      .raw("strata", strata.dump())
      .raw("anchors", anchorsJson)
      .raw("info", info.dump());
  if (triad && timeAnchors) {
    JsonObj t;
    t.num("median_s", median(triadSamples))
        .num("runs", double(triadSamples.size()))
        .raw("samples_s", jsonArray(triadSamples))
        .num("bytes", triad->bytes())
        .num("gbs", triad->bytes() / median(triadSamples) / 1e9);
    out.raw("triad", t.dump());
  }
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
