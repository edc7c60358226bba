// The transpose family's rows: gp::transpose(gp::cuda) against cuBLAS geam
// (cublasSgeam / cublasDgeam with op T) and the copy roofline on square,
// odd and thin shapes (f32 16384^2, f64 8192^2, 10007 x 3001, 2^24 x 4 and 4 x 2^24),
// gp::transpose(gp::host) against the host's copy bandwidth, and the ladder
// (copy ceiling, naive, shared tile, padded tile, diagonal order,
// production, rotated sector-owned tiles) on f32 16384^2 (8192^2 in quick runs) and
// 10007 x 3001. A transpose must read and write every element once, so GB/s
// counts 2 x rows x cols x sizeof(T).
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench.hpp"
#include "dense_anchors.hpp"
#include "gpuprim/transpose.hpp"
#include "inputs.hpp"
#include "lab/ladder/dense.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261124;

row make_header(const char* backend, const char* type, std::size_t rows, std::size_t cols,
                std::size_t element) {
  return make_row("transpose", std::to_string(rows) + " x " + std::to_string(cols), backend, type,
                  rows * cols,
                  2.0 * static_cast<double>(rows * cols) * static_cast<double>(element));
}

template <class T>
std::string compare(const std::vector<T>& got, const std::vector<T>& expected, const char* what) {
  if (got.size() != expected.size()) return "size mismatch";
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0) {
      return "element " + std::to_string(i) + " differs from " + what;
    }
  }
  return "ok";
}

// ---- host ---------------------------------------------------------------

template <class T>
std::vector<row> measure_host(row r, std::size_t rows, std::size_t cols) {
  const host_array<T> in = random_host_array<T>(rows * cols, input_seed);
  std::vector<T> out(rows * cols);
  r.measured = time_host([&](int) {
    transpose(host, matrix_view<const T>(in.data.get(), rows, cols),
              matrix_view<T>(out.data(), cols, rows));
  });
  bool ok = true;
  for (std::size_t i = 0; i < rows && ok; i += 97)
    for (std::size_t j = 0; j < cols && ok; j += 89)
      ok = out[j * rows + i] == in.data[i * cols + j];
  r.check = ok ? "ok" : "wrong element";
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  table t;
  t.title = "transpose (host)";
  t.roofline = "host copy bw";
  t.roofline_rate = measure_host_copy_bandwidth_gbs((ctx.quick ? 256u : 1024u) << 20);
  t.notes = {
      "gp::transpose(gp::host, ...) on all OpenMP threads (tiles through a local buffer), timed "
      "with steady_clock; GB/s counts the bytes read + written; the roofline is the host's copy "
      "bandwidth (read + write, all threads) measured in this run.",
  };
  const std::size_t index = p.add_table(std::move(t));
  const std::size_t side = ctx.small_host_rows() ? 4096 : 8192;
  const row f = make_header("host", "float", side, side, 4);
  p.cases.push_back({index, f, [f, side] { return measure_host<float>(f, side, side); }, true});
  const row d = make_header("host", "double", side, side, 8);
  p.cases.push_back({index, d, [d, side] { return measure_host<double>(d, side, side); }});
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

template <class T>
std::vector<row> measure_cuda(const context& ctx, row r, std::size_t rows, std::size_t cols) {
  const host_array<T> values = random_host_array<T>(rows * cols, input_seed);
  const device_vector<T> in = to_device(values.span());
  device_vector<T> ours(rows * cols), theirs(rows * cols);
  const cublas_dense cublas(ctx.stream);
  r.vendor = cublas_dense::transpose_name(sizeof(T) == 8);
  time_device_pair(
      r, ctx.stream,
      [&](int) {
        transpose(cuda.on(ctx.stream), make_matrix_view(in.span(), rows, cols),
                  make_matrix_view(ours.span(), cols, rows));
      },
      [&](int) { cublas.transpose(in.data(), theirs.data(), rows, cols); });
  synchronize(ctx.stream);
  r.check = compare(to_host(ours), to_host(theirs), "cuBLAS geam's");
  return {r};
}

struct cuda_shape {
  std::size_t rows, cols;
  bool f64;
  bool in_quick_runs;
};

constexpr cuda_shape cuda_shapes[] = {
    {16384, 16384, false, true},
    {8192, 8192, true, false},
    {10007, 3001, false, true},
    {std::size_t{1} << 24, 4, false, false},
    {4, std::size_t{1} << 24, false, false},
};

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "transpose (cuda)", roofline::device_copy,
      {
          "gp::transpose(gp::cuda.on(stream), in, out) against cuBLAS geam (op T, alpha 1, beta 0) "
          "on the same row-major input; GB/s counts the bytes read + written (2 x rows x cols x "
          "sizeof(T)); % of the device-to-device copy bandwidth of this run. Every input is larger "
          "than L2 (not rotated).",
          faster_note("check compares every element with geam's, bit for bit."),
      }));
  for (const cuda_shape& s : kept_cases(ctx, cuda_shapes)) {
    const std::size_t rows = s.rows, cols = s.cols;
    if (s.f64) {
      const row h = make_header("cuda", "double", rows, cols, 8);
      p.cases.push_back(
          {index, h, [ctx, h, rows, cols] { return measure_cuda<double>(ctx, h, rows, cols); }});
    } else {
      const row h = make_header("cuda", "float", rows, cols, 4);
      p.cases.push_back({index, h,
                         [ctx, h, rows, cols] { return measure_cuda<float>(ctx, h, rows, cols); },
                         rows == 16384 && cols == 16384});
    }
  }
}

// The ladder: f32 rows x cols, every rung's result compared with the
// production transpose's.
struct ladder_inputs {
  std::size_t rows = 0, cols = 0;
  std::unique_ptr<device_vector<float>> in, out;
  std::vector<float> reference;
  std::unique_ptr<cublas_dense> cublas;

  void prepare(const context& ctx) {
    if (in) return;
    const host_array<float> values = random_host_array<float>(rows * cols, input_seed);
    in = std::make_unique<device_vector<float>>(to_device(values.span()));
    out = std::make_unique<device_vector<float>>(rows * cols);
    transpose(cuda.on(ctx.stream), make_matrix_view(in->span(), rows, cols),
              make_matrix_view(out->span(), cols, rows));
    synchronize(ctx.stream);
    reference = to_host(*out);
    cublas = std::make_unique<cublas_dense>(ctx.stream);
  }
};

using transpose_enqueuer = std::function<void(device_span<const float> in, device_span<float> out,
                                              std::size_t rows, std::size_t cols)>;

row measure_ladder_row(const context& ctx, ladder_inputs& inputs, row r,
                       const transpose_enqueuer& enqueue, bool is_copy) {
  inputs.prepare(ctx);
  const std::size_t rows = inputs.rows, cols = inputs.cols;
  r.measured = time_device(
      ctx.stream, [&](int) { enqueue(inputs.in->span(), inputs.out->span(), rows, cols); });
  inputs.out->fill_bytes(0xA5);
  enqueue(inputs.in->span(), inputs.out->span(), rows, cols);
  synchronize(ctx.stream);
  if (is_copy) {
    r.check = compare(to_host(*inputs.out), to_host(*inputs.in), "the input");
  } else {
    r.check = compare(to_host(*inputs.out), inputs.reference, "gp::transpose's");
  }
  return r;
}

// One ladder table: every rung, then cuBLAS geam, on float rows x cols.
void plan_ladder_table(const context& ctx, plan& p, std::size_t rows, std::size_t cols) {
  table t = ladder_table(ctx, "transpose ladder: float " + std::to_string(rows) + " x " +
                                  std::to_string(cols) + " (cuda)");
  t.notes = {
      "The first row is a copy of the same bytes (the ceiling a transpose can reach), then the "
      "rungs oldest first: the production gp::transpose, then attempts beyond it; cuBLAS geam "
      "follows for reference.",
      "CUDA events around each call; GB/s counts bytes read + written.",
  };
  const auto inputs = std::make_shared<ladder_inputs>();
  inputs->rows = rows;
  inputs->cols = cols;
  const stream_t stream = ctx.stream;
  const std::size_t index = p.add_table(std::move(t));
  for (const auto& rung : ladder::transpose_rungs()) {
    row r = make_header("cuda", "float", rows, cols, 4);
    r.implementation = "gpuprim::ladder";
    r.variant = rung.name;
    r.fixes = rung.fixes;
    const auto run = rung.run;
    const bool is_copy = rung.is_copy;
    p.cases.push_back({index, r, [ctx, inputs, r, run, is_copy, stream] {
                         return std::vector<row>{measure_ladder_row(
                             ctx, *inputs, r,
                             [run, stream](device_span<const float> in, device_span<float> out,
                                           std::size_t m, std::size_t n) {
                               run(make_matrix_view(in, m, n), make_matrix_view(out, n, m), stream);
                             },
                             is_copy)};
                       }});
  }
  row r = make_header("cuda", "float", rows, cols, 4);
  r.implementation = "cublas";
  r.variant = "cublasSgeam";
  r.fixes = "(reference) the vendor library";
  p.cases.push_back(
      {index, r, [ctx, inputs, r] {
         return std::vector<row>{measure_ladder_row(
             ctx, *inputs, r,
             [inputs](device_span<const float> in, device_span<float> out, std::size_t m,
                      std::size_t n) { inputs->cublas->transpose(in.data(), out.data(), m, n); },
             false)};
       }});
}

// The square ladder, then the odd shape whose rows start at every offset
// within a 32-byte sector (the leading dimensions 3001 and 10007 are odd).
void plan_ladder(const context& ctx, plan& p) {
  const std::size_t side = ctx.quick ? 8192 : 16384;
  plan_ladder_table(ctx, p, side, side);
  plan_ladder_table(ctx, p, 10007, 3001);
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners transpose_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, plan_ladder);
}

}  // namespace gpuprim::bench
