// The reduction family's rows: gpuprim::reduce_into against CUB on the GPU,
// gpuprim::reduce(gp::host) against the standard library on the CPU, and
// the ladder of historical kernels (DESIGN.md sections 6 and 7).
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <numeric>
#include <string>

#include "anchors.hpp"
#include "gpuprim/reduce.hpp"
#include "inputs.hpp"
#include "lab/ladder/ladder.hpp"
#include "plan.hpp"
#include "span_rows.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261122;

std::string relative_error_check(double got, double expected, double tolerance,
                                 const char* reference) {
  const double error = std::abs(got - expected) / std::abs(expected);
  if (error <= tolerance) return "ok";  // (a NaN fails here)
  char text[96];
  std::snprintf(text, sizeof text, "rel. error %.1e vs %s", error, reference);
  return text;
}

// Sums are compared with a tolerance that rounding in any summation order
// meets but a kernel dropping 0.1% of the (positive) inputs does not;
// everything else must match exactly.
template <class T>
std::string check_result(reduce_op op, T got, T expected, const char* reference) {
  if constexpr (std::is_floating_point_v<T>) {
    if (op == reduce_op::sum) {
      return relative_error_check(got, expected, sizeof(T) == 4 ? 1e-3 : 1e-9, reference);
    }
  }
  if (got == expected) return "ok";
  return "got " + std::to_string(got) + ", " + reference + " " + std::to_string(expected);
}

row make_header(const char* backend, const char* type, std::size_t n, std::size_t element_bytes) {
  return make_row("reduce", "", backend, type, n, static_cast<double>(n * element_bytes));
}

// A CUDA row's header for n elements of T.
constexpr auto cuda_header = []<class T>(std::size_t n) {
  return make_header("cuda", type_name<T>(), n, sizeof(T));
};

// ---- host ---------------------------------------------------------------

std::vector<row> measure_host_sum(row r) {
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  const std::span<const float> in = values.span();
  const double reference = std::accumulate(in.begin(), in.end(), 0.0);

  float result = 0.0f;
  r.measured = time_host([&](int) { result = gpuprim::reduce(host, in, 0.0f); });
  r.check = relative_error_check(result, reference, 1e-3, "double sum");

  float single_thread_result = 0.0f;
  r.vendor = "std::reduce (1 thread)";
  r.vendor_measured =
      time_host([&](int) { single_thread_result = std::reduce(in.begin(), in.end(), 0.0f); });

  row accumulate = r;
  accumulate.implementation = "std::accumulate (1 thread)";
  accumulate.vendor.clear();
  accumulate.vendor_measured.reset();
  accumulate.check.clear();
  accumulate.measured =
      time_host([&](int) { single_thread_result += std::accumulate(in.begin(), in.end(), 0.0f); });
  volatile float sink = single_thread_result;
  (void)sink;
  return {r, accumulate};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "reduce (host)", roofline::host_read,
      {
          "gpuprim::reduce(gp::host, ...) on all OpenMP threads, timed with steady_clock; "
          "std::reduce and std::accumulate run on one thread, for context.",
          "GB/s counts n x sizeof(T) read; the roofline is every thread reading its own part of "
          "a buffer far larger than the caches once, measured in this run.",
          "check: gpuprim's float sum against a double-precision sum.",
      }));
  row header = make_header("host", "float", host_size(ctx, 27, 25), sizeof(float));
  header.variant = "sum";
  p.cases.push_back({index, header, [header] { return measure_host_sum(header); }, true});
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

template <class T>
T identity_of(reduce_op op) {
  using limits = std::numeric_limits<T>;
  switch (op) {
    case reduce_op::sum:
      return T{0};
    case reduce_op::min:
      return limits::has_infinity ? limits::infinity() : limits::max();
    case reduce_op::max:
      return limits::has_infinity ? -limits::infinity() : limits::lowest();
  }
  return T{0};
}

template <class T>
void enqueue_reduce_into(reduce_op op, device_span<const T> in, device_span<T> out,
                         stream_t stream) {
  const cuda_backend on_stream = cuda.on(stream);
  switch (op) {
    case reduce_op::sum:
      return gpuprim::reduce_into(on_stream, in, out, identity_of<T>(op), plus{});
    case reduce_op::min:
      return gpuprim::reduce_into(on_stream, in, out, identity_of<T>(op), minimum{});
    case reduce_op::max:
      return gpuprim::reduce_into(on_stream, in, out, identity_of<T>(op), maximum{});
  }
}

// One size's random inputs rotated past L2, and a two-element output
// (gpuprim's result, the anchor's result).
template <class T>
struct device_workload : rotated_buffers<T> {
  device_vector<T> out{2};

  device_workload(std::size_t n, std::size_t l2_cache_bytes)
      : rotated_buffers<T>(random_host_array<T>(n, input_seed).span(), l2_cache_bytes, false) {}
  device_span<T> gpuprim_out() { return out.span().first(1); }
  device_span<T> vendor_out() { return out.span().subspan(1, 1); }
  // Both results, once the stream has finished them.
  std::vector<T> results(stream_t stream) {
    synchronize(stream);
    return to_host(out);
  }
};

template <class T>
std::vector<row> measure_cuda_reduce(const context& ctx, row r, reduce_op op) {
  device_workload<T> work(r.n, ctx.l2_cache_bytes);
  const stream_t stream = ctx.stream;
  const cub_reduce<T> cub(op, r.n, stream);
  r.vendor = cub_reduce<T>::name(op);
  time_device_pair(
      r, stream,
      [&](int run) { enqueue_reduce_into(op, work.input(run), work.gpuprim_out(), stream); },
      [&](int run) { cub.enqueue(work.input(run).data(), work.vendor_out().data()); });

  enqueue_reduce_into(op, work.input(0), work.gpuprim_out(), stream);
  cub.enqueue(work.input(0).data(), work.vendor_out().data());
  const std::vector<T> results = work.results(stream);
  r.check = check_result(op, results[0], results[1], "CUB");
  return {r};
}

constexpr span_case<reduce_op> cuda_cases[] = {
    {reduce_op::sum, scalar::f32, 20, true},  {reduce_op::sum, scalar::f32, 24, true},
    {reduce_op::sum, scalar::f32, 28, false}, {reduce_op::sum, scalar::f64, 24, true},
    {reduce_op::sum, scalar::f64, 28, false}, {reduce_op::sum, scalar::i32, 24, true},
    {reduce_op::sum, scalar::i32, 28, false}, {reduce_op::min, scalar::f32, 24, true},
    {reduce_op::min, scalar::f32, 28, false}, {reduce_op::max, scalar::f32, 28, false},
};

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "reduce (cuda)", roofline::device_copy,
      {
          "gpuprim::reduce_into(gp::cuda.on(stream), ...) against cub::DeviceReduce (temporary "
          "storage allocated once, outside the timed loop); both leave the result on the device.",
          device_events_note("n x sizeof(T) read, the fewest bytes a reduction must move"),
          l2_note(ctx.l2_cache_bytes, false),
          faster_note("check compares the two results."),
      }));
  add_span_rows(ctx, p, index, cuda_cases, reduce_op::sum, cuda_header, name_of,
                [ctx]<class T>(const row& header, reduce_op op) {
                  return measure_cuda_reduce<T>(ctx, header, op);
                });
}

// The ladder's rungs share one input set per type; the reference result is
// CUB's sum of the first copy.
template <class T>
struct ladder_inputs {
  std::unique_ptr<device_workload<T>> work;
  T reference{};

  device_workload<T>& prepare(const context& ctx, std::size_t n) {
    if (!work) {
      work = std::make_unique<device_workload<T>>(n, ctx.l2_cache_bytes);
      const cub_reduce<T> cub(reduce_op::sum, n, ctx.stream);
      cub.enqueue(work->input(0).data(), work->vendor_out().data());
      reference = work->results(ctx.stream)[1];
    }
    return *work;
  }
};

template <class T>
row measure_ladder_row(const context& ctx, ladder_inputs<T>& inputs, row r,
                       const span_enqueuer<T>& enqueue) {
  device_workload<T>& work = inputs.prepare(ctx, r.n);
  r.measured =
      time_device(ctx.stream, [&](int run) { enqueue(work.input(run), work.gpuprim_out()); });
  enqueue(work.input(0), work.gpuprim_out());
  r.check = check_result(reduce_op::sum, work.results(ctx.stream)[0], inputs.reference, "CUB");
  return r;
}

template <class T>
void plan_ladder(const context& ctx, plan& p, int log2_n) {
  table t = ladder_table(
      ctx, "reduce ladder: sum of 2^" + std::to_string(log2_n) + " " + type_name<T>() + " (cuda)");
  t.notes = {"CUDA events around each call; GB/s counts n x sizeof(T) read. " +
             l2_note(ctx.l2_cache_bytes, false)};
  const auto inputs = std::make_shared<ladder_inputs<T>>();
  add_span_ladder<T>(
      p, std::move(t), cuda_header.template operator()<T>(std::size_t{1} << log2_n), ctx.stream,
      ladder::reduce_rungs<T>(),
      [ctx, inputs](const row& r, const span_enqueuer<T>& enqueue) {
        return measure_ladder_row<T>(ctx, *inputs, r, enqueue);
      },
      "gpuprim::reduce_into", enqueue_reduce_into<T>, reduce_op::sum);
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners reduce_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, [](const context& ctx, plan& p) {
    plan_span_ladders(ctx, [&]<class T>(int log2_n) { plan_ladder<T>(ctx, p, log2_n); });
  });
}

}  // namespace gpuprim::bench
