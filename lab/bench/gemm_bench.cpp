// The matrix multiply family's rows: gp::gemm(gp::cuda) (cuBLAS / cuBLASLt
// underneath) against raw cuBLAS on square shapes (1024^3, 4096^3, 8192^3)
// and a thin one (8192 x 8192 x 64) for fp32, bf16 and tf32;
// gp::gemm(gp::host) against OpenBLAS called directly; and the ladders (fp32
// rungs on CUDA cores, bf16 on tensor cores) against cuBLAS.
//
// A matrix multiply is compute-bound, so these tables count floating-point
// operations (2 m n k a call): their rate column is GFLOP/s and "% of" the
// percent of the table's peak (a datasheet's dense figure for that
// precision, named in the notes).
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench.hpp"
#include "dense_anchors.hpp"
#include "enum_name.hpp"
#include "gpuprim/gemm.hpp"
#include "inputs.hpp"
#include "lab/ladder/dense.hpp"
#include "plan.hpp"

#if GPUPRIM_HAS_CBLAS
#include <cblas.h>
#endif
namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261125;

// H100 SXM5 datasheet, dense (no sparsity), in GFLOP/s.
constexpr double peak_fp32_gflops = 66.9e3;
constexpr double peak_tf32_gflops = 494.7e3;
constexpr double peak_bf16_gflops = 989.4e3;
constexpr const char* peak_source = "NVIDIA H100 SXM5 datasheet, dense";

struct gemm_shape {
  std::size_t m, n, k;
};

std::string shape_name(const gemm_shape& s) {
  return std::to_string(s.m) + " x " + std::to_string(s.n) + " x " + std::to_string(s.k);
}

row make_header(const char* backend, const char* type, const gemm_shape& s) {
  row r = make_row("gemm", shape_name(s), backend, type, s.m);
  r.flops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  return r;
}

// Inputs in [0.5, 1.5): every product positive, so a relative check of the
// result against the vendor's catches wrong elements without cancellation.
template <class T>
std::vector<T> gemm_input(std::size_t n, std::uint64_t seed) {
  const host_array<float> values = random_host_array<float>(n, seed);
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<T>(values.data[i]);
  return out;
}

template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& expected, double tolerance,
                    const char* what) {
  if (got.size() != expected.size()) return "size mismatch";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = got[i], e = expected[i];
    if (!(std::abs(g - e) <= tolerance * std::abs(e))) {
      char text[160];
      std::snprintf(text, sizeof text, "C[%zu] = %.7g, %s %.7g", i, g, what, e);
      return text;
    }
  }
  return "ok";
}

// ---- host ---------------------------------------------------------------

template <class T>
std::vector<row> measure_host(row r, gemm_shape s) {
  const auto a = gemm_input<T>(s.m * s.k, input_seed);
  const auto b = gemm_input<T>(s.k * s.n, input_seed + 1);
  std::vector<T> c(s.m * s.n), direct(s.m * s.n);
  const matrix_view<const T> A(a.data(), s.m, s.k), B(b.data(), s.k, s.n);
  r.measured = time_host([&](int) { gemm(host, A, B, matrix_view<T>(c.data(), s.m, s.n)); });
#if GPUPRIM_HAS_CBLAS
  const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
  r.vendor = std::is_same_v<T, float> ? "cblas_sgemm (OpenBLAS)" : "cblas_dgemm (OpenBLAS)";
  r.vendor_measured = time_host([&](int) {
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(),
                  n, 0.0f, direct.data(), n);
    } else {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a.data(), k, b.data(), n,
                  0.0, direct.data(), n);
    }
  });
  r.check = compare(c, direct, 1e-5, "OpenBLAS");
#else
  r.check = "-";
#endif
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  table t;
  t.title = "gemm (host)";
  t.rate = rate_unit::gflops;
  t.count = "m";
  t.notes = {
      std::string("gp::gemm(gp::host, A, B, C) (C = A B, row-major) through ") +
          (detail::host_blas_name()[0] ? detail::host_blas_name() : "the library's own loop") +
          ", against the same BLAS called directly; steady_clock; GFLOP/s counts 2 m n k per call.",
  };
  const std::size_t index = p.add_table(std::move(t));
  const std::size_t side = ctx.small_host_rows() ? 1024 : 2048;
  const gemm_shape s{side, side, side};
  const row f = make_header("host", "float", s);
  p.cases.push_back({index, f, [f, s] { return measure_host<float>(f, s); }, true});
  const row d = make_header("host", "double", s);
  p.cases.push_back({index, d, [d, s] { return measure_host<double>(d, s); }});
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

const char* mode_name(cublas_gemm_mode mode) {
  return enum_name(mode, {"float", "float (TF32)", "bfloat16 -> float"});
}

template <class In>
std::vector<row> measure_cuda(const context& ctx, row r, gemm_shape s, cublas_gemm_mode mode) {
  const auto d_a = to_device(gemm_input<In>(s.m * s.k, input_seed));
  const auto d_b = to_device(gemm_input<In>(s.k * s.n, input_seed + 1));
  device_vector<float> ours(s.m * s.n), theirs(s.m * s.n);
  const cublas_dense cublas(ctx.stream);
  const precision prec = mode == cublas_gemm_mode::tf32 ? precision::tf32 : precision::standard;
  r.vendor = cublas_dense::gemm_name(mode);
  time_device_pair(
      r, ctx.stream,
      [&](int) {
        gemm(cuda.on(ctx.stream), make_matrix_view(d_a.span(), s.m, s.k),
             make_matrix_view(d_b.span(), s.k, s.n), make_matrix_view(ours.span(), s.m, s.n), 1.0f,
             0.0f, matrix_op::none, matrix_op::none, prec);
      },
      [&](int) { cublas.gemm(mode, d_a.data(), d_b.data(), theirs.data(), s.m, s.n, s.k); });
  synchronize(ctx.stream);
  r.check = compare(to_host(ours), to_host(theirs), mode == cublas_gemm_mode::fp32 ? 1e-5 : 1e-2,
                    "cuBLAS");
  return {r};
}

constexpr gemm_shape cuda_shapes[] = {
    {1024, 1024, 1024}, {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 64}};

void plan_cuda_rows(const context& ctx, plan& p) {
  const cublas_gemm_mode modes[] = {cublas_gemm_mode::fp32, cublas_gemm_mode::bf16,
                                    cublas_gemm_mode::tf32};
  for (const cublas_gemm_mode mode : modes) {
    table t;
    const double peak = mode == cublas_gemm_mode::fp32   ? peak_fp32_gflops
                        : mode == cublas_gemm_mode::bf16 ? peak_bf16_gflops
                                                         : peak_tf32_gflops;
    t.title = std::string("gemm ") + mode_name(mode) + " (cuda)";
    t.rate = rate_unit::gflops;
    t.count = "m";
    t.roofline = "peak";
    t.roofline_rate = peak;
    t.notes = {
        std::string("gp::gemm(gp::cuda.on(stream), A, B, C, 1, 0") +
            (mode == cublas_gemm_mode::tf32 ? ", none, none, gp::precision::tf32" : "") +
            ") on row-major inputs in [0.5, 1.5), against " + cublas_dense::gemm_name(mode) +
            " on the same data. GFLOP/s counts 2 m n k per call; % of peak is of " +
            std::to_string(static_cast<int>(peak / 1e3)) + " TFLOP/s (" + peak_source + ").",
        mode == cublas_gemm_mode::tf32
            ? "TF32: inputs rounded to 10-bit mantissas on tensor cores; only on request."
            : "No TF32 (cuBLAS compute type 32F for fp32; bf16 inputs, fp32 accumulation).",
        "CUDA events, interleaved; check: every element within " +
            std::string(mode == cublas_gemm_mode::fp32 ? "1e-5" : "1e-2") + " of cuBLAS's.",
    };
    const std::size_t index = p.add_table(std::move(t));
    for (const gemm_shape& s : cuda_shapes) {
      if (ctx.quick && s.m > 4096) continue;
      const row h = make_header("cuda", mode_name(mode), s);
      if (mode == cublas_gemm_mode::bf16) {
        p.cases.push_back({index, h,
                           [ctx, h, s, mode] { return measure_cuda<bfloat16>(ctx, h, s, mode); },
                           s.m == 8192 && s.n == 8192 && s.k == 8192});
      } else {
        p.cases.push_back(
            {index, h, [ctx, h, s, mode] { return measure_cuda<float>(ctx, h, s, mode); },
             mode == cublas_gemm_mode::fp32 && s.m == 8192 && s.n == 8192 && s.k == 8192});
      }
    }
  }
}

// The ladders. Each row is timed as the host sees it (enqueue + synchronize,
// steady_clock, 3 warm-ups and 30 runs): these calls take milliseconds, so
// launch latency does not matter, and the harness's event timing would
// also time 300 queued calls per row (minutes for the first rungs).
template <class In>
struct ladder_inputs {
  gemm_shape shape;
  device_vector<In> a, b;
  device_vector<float> c;
  std::vector<float> reference;  // cuBLAS's result

  ladder_inputs(const context& ctx, gemm_shape s)
      : shape(s),
        a(to_device(gemm_input<In>(s.m * s.k, input_seed))),
        b(to_device(gemm_input<In>(s.k * s.n, input_seed + 1))),
        c(s.m * s.n) {
    const cublas_dense cublas(ctx.stream);
    cublas.gemm(std::is_same_v<In, float> ? cublas_gemm_mode::fp32 : cublas_gemm_mode::bf16,
                a.data(), b.data(), c.data(), s.m, s.n, s.k);
    synchronize(ctx.stream);
    reference = to_host(c);
  }
};

template <class In>
using gemm_run = void (*)(device_matrix_view<const In>, device_matrix_view<const In>,
                          device_matrix_view<float>, stream_t);

template <class In>
row measure_ladder_row(const context& ctx, std::shared_ptr<std::unique_ptr<ladder_inputs<In>>> in,
                       gemm_shape s, row r, gemm_run<In> run) {
  if (!*in) *in = std::make_unique<ladder_inputs<In>>(ctx, s);
  ladder_inputs<In>& x = **in;
  const auto enqueue = [&] {
    run(make_matrix_view(device_span<const In>(x.a.span()), s.m, s.k),
        make_matrix_view(device_span<const In>(x.b.span()), s.k, s.n),
        make_matrix_view(x.c.span(), s.m, s.n), ctx.stream);
  };
  r.measured = time_host([&](int) {
    enqueue();
    synchronize(ctx.stream);
  });
  x.c.fill_bytes(0xFF);
  enqueue();
  synchronize(ctx.stream);
  r.check = compare(to_host(x.c), x.reference, std::is_same_v<In, float> ? 1e-4 : 1e-2, "cuBLAS");
  return r;
}

template <class In>
void add_ladder_table(const context& ctx, plan& p, const std::string& title, gemm_shape s,
                      std::span<const ladder::gemm_rung<In>> rungs, std::size_t first_rung,
                      double peak, const char* type) {
  table t = ladder_table(ctx, title + ": " + shape_name(s) + " (cuda)");
  t.rate = rate_unit::gflops;
  t.roofline = "peak";
  t.roofline_rate = peak;
  t.notes = {
      "The last row is the production gp::gemm (cuBLAS). GFLOP/s counts 2 m n k per call; % of "
      "peak is of " +
          std::to_string(static_cast<int>(peak / 1e3)) + " TFLOP/s (" + peak_source + ").",
      "Timed as enqueue + synchronize with steady_clock (3 warm-ups, median of 30); check: every "
      "element against cuBLAS's within " +
          std::string(std::is_same_v<In, float> ? "1e-4" : "1e-2") + " (relative).",
  };
  if (first_rung > 0) {
    t.notes.push_back("The first " + std::to_string(first_rung) +
                      " rungs are in the smaller table above (too slow at this size).");
  }
  const std::size_t index = p.add_table(std::move(t));
  const auto inputs = std::make_shared<std::unique_ptr<ladder_inputs<In>>>();
  for (std::size_t i = first_rung; i < rungs.size(); ++i) {
    row r = make_header("cuda", type, s);
    r.implementation = "gpuprim::ladder";
    r.variant = rungs[i].name;
    r.fixes = rungs[i].fixes;
    const gemm_run<In> run = rungs[i].run;
    p.cases.push_back({index, r, [ctx, inputs, s, r, run] {
                         return std::vector<row>{measure_ladder_row<In>(ctx, inputs, s, r, run)};
                       }});
  }
}

void plan_ladder(const context& ctx, plan& p) {
  const std::size_t small = ctx.quick ? 2048 : 4096, large = ctx.quick ? 4096 : 8192;
  const auto rungs = ladder::gemm_rungs();
  add_ladder_table<float>(ctx, p, "gemm ladder, fp32 on CUDA cores", {small, small, small}, rungs,
                          0, peak_fp32_gflops, "float");
  // The fast rungs again at the size of the target.
  add_ladder_table<float>(ctx, p, "gemm ladder, fp32 on CUDA cores", {large, large, large}, rungs,
                          rungs.size() >= 3 ? rungs.size() - 3 : 0, peak_fp32_gflops, "float");
  for (const std::size_t size : {small, large}) {
    add_ladder_table<bfloat16>(ctx, p, "gemm ladder, bf16 on tensor cores", {size, size, size},
                               ladder::gemm_tensor_core_rungs(), 0, peak_bf16_gflops,
                               "bfloat16 -> float");
  }
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners gemm_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, plan_ladder);
}

}  // namespace gpuprim::bench
