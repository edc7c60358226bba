// The closest-pair family's rows (DESIGN.md sections 6 and 7):
//  - API rows: gp::closest_pair on 2-D float points, uniform in the unit
//    square at 2^16, 2^20, 2^24 and 10^8, Gaussian clusters whose widths
//    span 1000x, and points on a line; the CPU backend with the same
//    algorithm in the vendor column, so "vendor / gpuprim" is the GPU's
//    speed-up over the CPU (the thesis's headline figure, at 2^24). The clustered and line 10^8
//    rows also give their ratio to the uniform 10^8 row's time (target: clustered <= 3x).
//  - algorithm rows: each algorithm by name where its cost allows, GPU
//    against the same algorithm on the CPU; the quadratic ones also in
//    pair distances per second and % of the GPU's FP32 peak (6 flops per
//    pair: 2 subtractions, 2 multiplications, 1 addition, 1 compare), the
//    tiled one at 2^17 against its target (>= 50% of the peak); the
//    divide and conquer beside its sorting-network variant (a ladder rung).
//  - headline (`gpuprim bench`): uniform 2^20 and 10^8, clustered 10^8 and
//    the tiled 2^17 row, a few seconds in all.
//  - --ladder: the rungs of lab/ladder/closest_pair.cuh at 2^18.
//  - --sweep: threads per block x blocks per grid of the brute-force and
//    tiled kernels at 2^17 points, with each shape's occupancy (registers,
//    shared memory, resident blocks per SM from the CUDA occupancy API).
// Every call is synchronous (the answer comes back to the host), so rows
// are wall-clock medians of whole calls (time_host), launches and the
// copy of the answer included. Each row's answer is compared with the
// CPU's (or, for rows without a CPU run, with the GPU grid's).
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "enum_name.hpp"
#include "gpuprim/closest_pair.hpp"
#include "inputs.hpp"
#include "plan.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>

#include "lab/ladder/closest_pair.cuh"
#endif

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t closest_seed = 20261124;

enum class point_shape { uniform, clustered, line };

const char* shape_name(point_shape s) {
  return enum_name(s, {"uniform", "clustered", "line"});
}

double unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

// n 2-D float points (x, y interleaved). Clustered: 64 Gaussian clusters,
// widths 1e-2 down to 1e-5; line: y = 0.5 x + 0.25.
std::shared_ptr<std::vector<float>> make_points(point_shape shape, std::size_t n) {
  auto pts = std::make_shared<std::vector<float>>(2 * n);
  float* out = pts->data();
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t p = 0; p < count; ++p) {
    const std::uint64_t a = mix_bits(closest_seed ^ mix_bits(2 * p));
    const std::uint64_t b = mix_bits(closest_seed ^ mix_bits(2 * p + 1));
    double x = unit(a), y = unit(b);
    if (shape == point_shape::clustered) {
      const std::uint64_t c = mix_bits(closest_seed + 7 * static_cast<std::uint64_t>(p)) % 64;
      const double cx = unit(mix_bits(c * 3 + 1)), cy = unit(mix_bits(c * 3 + 2));
      const double width = 1e-2 * std::pow(1e-3, static_cast<double>(c) / 63.0);
      // Box-Muller from the two uniforms.
      const double r = std::sqrt(-2.0 * std::log(x > 0 ? x : 0x1.0p-53));
      const double t = 6.283185307179586 * y;
      x = cx + width * r * std::cos(t);
      y = cy + width * r * std::sin(t);
    } else if (shape == point_shape::line) {
      y = 0.5 * x + 0.25;
    }
    out[2 * p] = static_cast<float>(x);
    out[2 * p + 1] = static_cast<float>(y);
  }
  return pts;
}

std::string count_text(std::size_t n) {
  if (n == 100000000) return "10^8";
  int log2 = 0;
  while ((std::size_t{1} << log2) < n)
    ++log2;
  return (std::size_t{1} << log2) == n ? "2^" + std::to_string(log2) : std::to_string(n);
}

const char* algorithm_label(closest_pair_algorithm a) {
  return closest_pair_algorithm_name(a);
}

bool quadratic(closest_pair_algorithm a) {
  return a == closest_pair_algorithm::brute_force || a == closest_pair_algorithm::tiled;
}

// The GPU's FP32 peak in GFLOP/s: SMs x 128 lanes x 2 (an FMA) x clock.
double fp32_peak_gflops() {
#if GPUPRIM_HAS_CUDA
  int device = 0, sms = 0, khz = 0;
  if (cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
      cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device) == cudaSuccess && khz > 0) {
    return double(sms) * 128 * 2 * khz * 1e-6;
  }
#endif
  return 0;
}

std::string pair_text(const closest_pair_result& r) {
  char text[96];
  std::snprintf(text, sizeof text, "(%zu, %zu, %.9g)", r.i, r.j, r.distance);
  return text;
}

std::string compare(const closest_pair_result& got, const closest_pair_result& want,
                    const char* reference) {
  if (got.i == want.i && got.j == want.j && got.squared_distance == want.squared_distance) {
    return "ok";
  }
  return "differs from " + std::string(reference) + ": " + pair_text(got) + " vs " +
         pair_text(want);
}

// Pair distances per second and % of the FP32 peak for quadratic rows.
std::string rate_text(std::size_t n, double us) {
  const double pairs = double(n) * double(n - 1) / 2;
  const double per_second = pairs / (us * 1e-6);
  const double peak = fp32_peak_gflops();
  char text[128];
  if (peak > 0) {
    std::snprintf(text, sizeof text, "; %.1f G pair distances/s, %.0f%% of FP32 peak (%.1f TF)",
                  per_second * 1e-9, 100.0 * per_second * 6 / (peak * 1e9), peak * 1e-3);
  } else {
    std::snprintf(text, sizeof text, "; %.1f G pair distances/s", per_second * 1e-9);
  }
  return text;
}

row make_header(const std::string& variant, const char* backend, std::size_t n) {
  return make_row("closest_pair", variant, backend, "float", n);
}

closest_pair_result run_host(const std::vector<float>& pts, closest_pair_algorithm a) {
  return closest_pair(host, matrix_view<const float>(pts.data(), pts.size() / 2, 2), a);
}

// A host row: the CPU backend alone.
std::vector<row> measure_host(row r, std::shared_ptr<std::vector<float>> pts,
                              closest_pair_algorithm a) {
  closest_pair_result got;
  r.measured = time_host([&](int) { got = run_host(*pts, a); });
  r.check = "ok (" + pair_text(got) + ")";
  if (quadratic(a)) r.check += rate_text(r.n, r.measured.median_us);
  return {r};
}

#if GPUPRIM_HAS_CUDA

const ladder::closest_pair_rung& find_rung(const std::string& name) {
  for (const ladder::closest_pair_rung& rung : ladder::closest_pair_rungs())
    if (name == rung.name) return rung;
  throw std::logic_error("closest_pair: no ladder rung " + name);
}

// A GPU row, with the CPU backend's same algorithm in the vendor column
// when `with_host`. `uniform_us`: the uniform row of the same n, whose median
// this row's is reported against (clustered and line rows), or that this
// row's median is stored in (the uniform row).
std::vector<row> measure_cuda(const context& ctx, row r, std::shared_ptr<std::vector<float>> pts,
                              closest_pair_algorithm a, bool with_host,
                              std::shared_ptr<double> uniform_us = nullptr,
                              bool is_uniform = false) {
  const std::size_t n = pts->size() / 2;
  const device_vector<float> d = to_device(*pts);
  const device_matrix_view<const float> view(d.data(), n, 2);
  closest_pair_result got;
  r.measured = time_host([&](int) { got = closest_pair(cuda.on(ctx.stream), view, a); });
  if (with_host) {
    closest_pair_result want;
    r.vendor = std::string("gpuprim host ") + algorithm_label(a) + " (" +
               std::to_string(omp_get_max_threads()) + " threads)";
    r.vendor_measured = time_host([&](int) { want = run_host(*pts, a); });
    r.check = compare(got, want, "the host");
  } else {
    const auto want = closest_pair(cuda.on(ctx.stream), view, closest_pair_algorithm::grid);
    r.check = compare(got, want, "the GPU grid");
  }
  if (quadratic(a)) r.check += rate_text(n, r.measured.median_us);
  if (uniform_us && is_uniform) *uniform_us = r.measured.median_us;
  if (uniform_us && !is_uniform && *uniform_us > 0) {
    char text[96];
    std::snprintf(text, sizeof text, "; %.2fx the uniform %s time (target <= 3x)",
                  r.measured.median_us / *uniform_us, count_text(n).c_str());
    r.check += text;
  }
  return {r};
}

#endif

// ---- API rows -----------------------------------------------------------------------

struct api_case {
  point_shape shape;
  std::size_t n;
  bool with_host;  // the CPU backend in the same row (its cost allows)
  bool in_quick_runs;
};

constexpr api_case api_cases[] = {
    {point_shape::uniform, std::size_t{1} << 16, true, true},
    {point_shape::uniform, std::size_t{1} << 20, true, true},
    {point_shape::uniform, std::size_t{1} << 24, true, false},
    {point_shape::uniform, 100000000, false, false},
    {point_shape::clustered, std::size_t{1} << 20, true, true},
    {point_shape::clustered, std::size_t{1} << 24, false, false},
    {point_shape::clustered, 100000000, false, false},
    {point_shape::line, std::size_t{1} << 20, true, true},
    {point_shape::line, std::size_t{1} << 24, false, false},
    {point_shape::line, 100000000, false, false},
};

// Algorithm rows: (shape, n, algorithm, CPU too).
struct algorithm_case {
  std::size_t n;
  closest_pair_algorithm algorithm;
  bool with_host;
};

constexpr algorithm_case algorithm_cases[] = {
    {std::size_t{1} << 16, closest_pair_algorithm::brute_force, true},
    {std::size_t{1} << 16, closest_pair_algorithm::tiled, true},
    {std::size_t{1} << 16, closest_pair_algorithm::divide_and_conquer, true},
    {std::size_t{1} << 16, closest_pair_algorithm::grid, true},
    // The compute target: the tiled brute force at 2^17 points, >= 50%
    // of the FP32 peak (also swept over launch shapes by --sweep).
    {std::size_t{1} << 17, closest_pair_algorithm::brute_force, false},
    {std::size_t{1} << 17, closest_pair_algorithm::tiled, false},
    {std::size_t{1} << 20, closest_pair_algorithm::tiled, false},
    {std::size_t{1} << 20, closest_pair_algorithm::divide_and_conquer, true},
    {std::size_t{1} << 20, closest_pair_algorithm::grid, true},
    {std::size_t{1} << 24, closest_pair_algorithm::divide_and_conquer, false},
};

// A table of times alone (no rate column), titled `title`.
table times_table(std::string title, std::vector<std::string> notes) {
  table t;
  t.title = std::move(title);
  t.rate = rate_unit::none;
  t.notes = std::move(notes);
  return t;
}

// Runs without a GPU (host rows alone) stop here and leave out the
// quadratic algorithms, so that `gpuprim bench` on a small CPU stays short;
// GPU runs time the CPU backend at every size its cost allows (the vendor
// column).
constexpr std::size_t host_only_limit = std::size_t{1} << 20;

void plan_api(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(times_table(
      std::string("closest_pair: gp::closest_pair on 2-D float points (") +
          (ctx.cuda ? "cuda, vendor column = the CPU backend" : "host") + ")",
      {
          "Wall-clock median of whole synchronous calls (bounds, sort, checks, the answer copied "
          "back).",
          "uniform: the unit square; clustered: 64 Gaussian clusters, widths 1e-2 to 1e-5 (1000x); "
          "line: y = 0.5 x + 0.25. The automatic algorithm (grid above 8192 points on the GPU, "
          "2048 on the CPU).",
          "vendor / gpuprim is the GPU's speed-up over the CPU backend (same algorithm, all OpenMP "
          "threads of this machine); check compares the pairs.",
      }));
  // The uniform 10^8 median, for the clustered and line 10^8 rows' ratio
  // (the target: clustered within 3x of uniform).
  const auto uniform_1e8_us = std::make_shared<double>(0.0);
  for (const api_case& c : kept_cases(ctx, api_cases)) {
    const std::string variant = std::string(shape_name(c.shape)) + ", auto";
    const point_shape shape = c.shape;
    const std::size_t n = c.n;
    if (ctx.cuda) {
#if GPUPRIM_HAS_CUDA
      const row header = make_header(variant, "cuda", n);
      const bool with_host = c.with_host;
      const auto ratio = n == 100000000 ? uniform_1e8_us : nullptr;
      p.cases.push_back({index, header, [ctx, header, shape, n, with_host, ratio] {
                           return measure_cuda(ctx, header, make_points(shape, n),
                                               closest_pair_algorithm::automatic, with_host, ratio,
                                               shape == point_shape::uniform);
                         }});
      // Headline: the uniform 2^20 and 10^8 rows and the clustered 10^8 row
      // (its ratio to the uniform one is a target); each a few seconds.
      p.cases.back().headline =
          (shape == point_shape::uniform && (n == std::size_t{1} << 20 || n == 100000000)) ||
          (shape == point_shape::clustered && n == 100000000);
#endif
    } else if (ctx.host && c.with_host && c.n <= host_only_limit) {
      const row header = make_header(variant, "host", n);
      p.cases.push_back({index, header, [header, shape, n] {
                           return measure_host(header, make_points(shape, n),
                                               closest_pair_algorithm::automatic);
                         }});
      p.cases.back().headline = shape == point_shape::uniform && n == std::size_t{1} << 20;
    }
  }

  const std::size_t algorithms = p.add_table(times_table(
      std::string("closest_pair algorithms, uniform 2-D float points (") +
          (ctx.cuda ? "cuda against the CPU backend" : "host") + ")",
      {
          "Each algorithm by name (closest_pair_algorithm); quadratic ones also in pair distances "
          "per second (n (n - 1) / 2 pairs) and % of the FP32 peak (6 flops a pair).",
      }));
  for (const algorithm_case& c : algorithm_cases) {
    if (ctx.quick && c.n > (std::size_t{1} << 20)) continue;
    const std::string variant = std::string("uniform, ") + algorithm_label(c.algorithm);
    const std::size_t n = c.n;
    const closest_pair_algorithm alg = c.algorithm;
    if (ctx.cuda) {
#if GPUPRIM_HAS_CUDA
      const row header = make_header(variant, "cuda", n);
      const bool with_host = c.with_host;
      p.cases.push_back({algorithms, header, [ctx, header, n, alg, with_host] {
                           return measure_cuda(ctx, header, make_points(point_shape::uniform, n),
                                               alg, with_host);
                         }});
      // A few milliseconds: the headline run keeps the FP32 target's row.
      p.cases.back().headline = alg == closest_pair_algorithm::tiled && n == std::size_t{1} << 17;
      if (alg == closest_pair_algorithm::divide_and_conquer) {
        // Beside it, the divide and conquer on the sorting networks (the
        // ladder's rung; docs/families/closest_pair.md says why it is not the production one).
        row net = make_header("uniform, divide_and_conquer (sorting networks)", "cuda", n);
        net.implementation = "gpuprim::ladder";
        p.cases.push_back({algorithms, net, [ctx, net, n]() mutable {
                             const auto pts = make_points(point_shape::uniform, n);
                             const device_vector<float> d = to_device(*pts);
                             const device_matrix_view<const float> view(d.data(), n, 2);
                             const ladder::closest_pair_rung& rung =
                                 find_rung("closest_pair_divide_and_conquer_networks");
                             closest_pair_result got;
                             net.measured =
                                 time_host([&](int) { got = rung.run(view, {}, ctx.stream); });
                             const auto want = closest_pair(cuda.on(ctx.stream), view,
                                                            closest_pair_algorithm::grid);
                             net.check = compare(got, want, "the GPU grid");
                             return std::vector<row>{net};
                           }});
      }
#endif
    } else if (ctx.host && c.with_host && c.n <= host_only_limit && !quadratic(alg)) {
      const row header = make_header(variant, "host", n);
      p.cases.push_back({algorithms, header, [header, n, alg] {
                           return measure_host(header, make_points(point_shape::uniform, n), alg);
                         }});
    }
  }
}

}  // namespace

#if GPUPRIM_HAS_CUDA
namespace {

void plan_closest_pair_ladder(const context& ctx, plan& p) {
  const std::size_t n = std::size_t{1} << (ctx.quick ? 16 : 18);
  table t = ladder_table(ctx, "closest_pair ladder: 2^" + std::string(ctx.quick ? "16" : "18") +
                                  " uniform 2-D float points (cuda)");
  t.rate = rate_unit::none;
  t.notes = {
      "Wall-clock medians of whole synchronous calls.",
  };
  const std::size_t index = p.add_table(std::move(t));
  const auto pts = std::make_shared<std::shared_ptr<std::vector<float>>>();
  for (const ladder::closest_pair_rung& rung : ladder::closest_pair_rungs()) {
    row r = make_header(rung.name, "cuda", n);
    r.implementation = "gpuprim::ladder";
    r.fixes = rung.fixes;
    const auto* which = &rung;
    p.cases.push_back({index, r, [ctx, r, n, pts, which]() mutable {
                         if (!*pts) *pts = make_points(point_shape::uniform, n);
                         const device_vector<float> d = to_device(**pts);
                         const device_matrix_view<const float> view(d.data(), n, 2);
                         closest_pair_result got;
                         r.measured =
                             time_host([&](int) { got = which->run(view, {}, ctx.stream); });
                         const auto want =
                             closest_pair(cuda.on(ctx.stream), view, closest_pair_algorithm::grid);
                         r.check = compare(got, want, "the GPU grid");
                         if (which->quadratic) r.check += rate_text(n, r.measured.median_us);
                         return std::vector<row>{r};
                       }});
  }
}

void plan_closest_pair_sweep(const context& ctx, plan& p) {
  table t;
  t.title = "closest_pair launch sweep: 2^17 uniform 2-D float points (cuda; two rows at 2^20)";
  t.rate = rate_unit::none;
  t.notes = {
      "The brute-force and tiled rungs at each threads-per-block x blocks-per-grid shape (the grid "
      "strides over the work: points for brute force, items of (threads x 8) x (threads x 4) pairs "
      "for the tiled kernel; per-item = one block per point chunk / per item), then the tiled "
      "rung's item options at one block per item: points i per thread (pts), points j per item "
      "(w), the full items first with the diagonal halves last (diag last), and the last wave's "
      "items narrower (tail w: about one per resident block). check: the pair, the rate, and the "
      "pass-1 kernel's registers per thread, shared memory per block and resident blocks per SM "
      "(cudaOccupancyMaxActiveBlocksPerMultiprocessor).",
  };
  const std::size_t index = p.add_table(std::move(t));
  const auto pts17 = std::make_shared<std::shared_ptr<std::vector<float>>>();
  const auto pts20 = std::make_shared<std::shared_ptr<std::vector<float>>>();
  int sms = 0, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  // The shapes: brute force at every threads x grid; the tiled rung at
  // every threads per block with one block per item and two persistent
  // grids at 128 threads (both far slower when measured), then its item
  // options at one block per item: points per thread (8 / 16), item width
  // (points j per item) and the diagonal halves last.
  struct shape_row {
    closest_pair_launch shape;
    std::string label;
    std::size_t n = std::size_t{1} << 17;
  };
  const auto grid_label = [](int blocks) {
    return blocks ? std::to_string(blocks) : std::string("per-item");
  };
  std::vector<shape_row> brute_rows, tiled_rows;
  for (int threads : {64, 128, 256, 512, 1024})
    for (int per_sm : {1, 4, 0}) {
      const int blocks = per_sm ? per_sm * sms : 0;
      brute_rows.push_back(
          {{threads, blocks}, std::to_string(threads) + " x " + grid_label(blocks)});
      if (per_sm == 0 || threads == 128)
        tiled_rows.push_back(
            {{threads, blocks}, std::to_string(threads) + " x " + grid_label(blocks)});
    }
  struct item_option {
    int threads, points, width;
    bool diagonals_last;
    int tail_width = 0;
  };
  const std::initializer_list<item_option> item_options = {
      {128, 8, 512, true},   {128, 8, 256, true},       {128, 8, 1024, true},
      {256, 8, 1024, true},  {128, 8, 512, true, 128},  {64, 16, 512, false},
      {64, 16, 512, true},   {64, 16, 1024, true},      {64, 16, 512, true, 128},
      {128, 16, 512, false}, {128, 16, 512, true},      {128, 16, 1024, true},
      {128, 16, 2048, true}, {128, 16, 512, true, 128}, {128, 16, 1024, true, 256},
      {256, 16, 1024, true}, {256, 16, 2048, true}};
  for (const item_option& o : item_options) {
    closest_pair_launch shape{o.threads, 0};
    shape.points_per_thread = o.points;
    shape.item_width = o.width;
    shape.diagonals_last = o.diagonals_last;
    shape.tail_item_width = o.tail_width;
    tiled_rows.push_back(
        {shape, std::to_string(o.threads) + " x per-item, " + std::to_string(o.points) +
                    " pts, w " + std::to_string(o.width) + (o.diagonals_last ? ", diag last" : "") +
                    (o.tail_width ? ", tail w " + std::to_string(o.tail_width) : "")});
  }
  // The default and one 16-point shape at 2^20 (62 waves: no tail to
  // speak of), to tell the loop's gain from the tail's.
  for (int points : {8, 16}) {
    closest_pair_launch shape{128, 0};
    shape.points_per_thread = points;
    shape.item_width = 512;
    shape.diagonals_last = true;
    tiled_rows.push_back(
        {shape, "128 x per-item, " + std::to_string(points) + " pts, w 512, diag last, 2^20",
         std::size_t{1} << 20});
  }
  for (const ladder::closest_pair_rung& rung : ladder::closest_pair_rungs()) {
    if (!rung.quadratic) continue;
    const bool is_tiled = std::string(rung.name) == "closest_pair_tiled_shared";
    for (const shape_row& sr : is_tiled ? tiled_rows : brute_rows) {
      const std::size_t n = sr.n;
      row r = make_header(std::string(rung.name) + " " + sr.label, "cuda", n);
      const auto* which = &rung;
      const closest_pair_launch shape = sr.shape;
      const auto pts = n == std::size_t{1} << 17 ? pts17 : pts20;
      p.cases.push_back(
          {index, r, [ctx, r, n, pts, which, shape]() mutable {
             if (!*pts) *pts = make_points(point_shape::uniform, n);
             const device_vector<float> d = to_device(**pts);
             const device_matrix_view<const float> view(d.data(), n, 2);
             closest_pair_result got;
             r.measured = time_host([&](int) { got = which->run(view, shape, ctx.stream); });
             const auto want =
                 closest_pair(cuda.on(ctx.stream), view, closest_pair_algorithm::grid);
             const closest_pair_occupancy o = which->occupancy(shape);
             const int threads = shape.threads;
             char occ[128];
             std::snprintf(occ, sizeof occ, "; %d regs, %d B shared, %d blocks/SM (%d%% occupancy)",
                           o.registers, o.shared_bytes, o.blocks_per_multiprocessor,
                           o.blocks_per_multiprocessor * threads * 100 / 2048);
             r.check =
                 compare(got, want, "the GPU grid") + rate_text(n, r.measured.median_us) + occ;
             return std::vector<row>{r};
           }});
    }
  }
}

}  // namespace
#endif

// The API rows put both backends in one table (the CPU in the vendor
// column); plan_api looks at ctx itself.
planners closest_pair_planners() {
  return {.both = plan_api,
          .ladder = GPUPRIM_BENCH_CUDA(plan_closest_pair_ladder),
          .sweep = GPUPRIM_BENCH_CUDA(plan_closest_pair_sweep)};
}

}  // namespace gpuprim::bench
