// The scan family's rows: gpuprim::inclusive_scan / exclusive_scan against
// CUB on the GPU, gpuprim::inclusive_scan(gp::host) against the standard
// library on the CPU, and the ladder of historical kernels (DESIGN.md
// sections 6 and 7). A scan must read and write every element, so GB/s
// counts n x sizeof(T) read + n x sizeof(T) written, like the copy roofline.
// Segmented scans (gpuprim::inclusive_segmented_scan with one-byte head
// flags) run against cub::DeviceScan::InclusiveSumByKey (int32 keys) on the
// GPU and a one-thread loop on the CPU, in tables of their own.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "inputs.hpp"
#include "lab/ladder/ladder.hpp"
#include "plan.hpp"
#include "span_rows.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261122;

const char* variant_name(scan_kind kind) {
  return kind == scan_kind::exclusive ? "exclusive sum" : "inclusive sum";
}

row make_header(const char* backend, const char* type, std::size_t n, std::size_t element_bytes) {
  return make_row("scan", "", backend, type, n,
                  2.0 * static_cast<double>(n) * static_cast<double>(element_bytes));
}

// A CUDA row's header for n elements of T.
constexpr auto cuda_header = []<class T>(std::size_t n) {
  return make_header("cuda", type_name<T>(), n, sizeof(T));
};

// Compares two scans element by element. Integers must match exactly. Float
// prefix sums (of positive inputs) are compared with a relative tolerance
// that any summation order meets but a wrong or unwritten element does not:
// the prefixes are rounded at magnitudes up to n, and the two sides round
// differently.
template <class T, class Expected>
std::string compare_scans(std::span<const T> got, std::span<const Expected> expected,
                          const char* reference) {
  if (got.size() != expected.size()) return "size mismatch";
  const std::size_t n = got.size();
  constexpr double tolerance = sizeof(T) == 4 ? 1e-3 : 1e-9;
  std::size_t wrong = 0;
  std::size_t first_wrong = n;
#pragma omp parallel for reduction(+ : wrong) reduction(min : first_wrong)
  for (std::size_t i = 0; i < n; ++i) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      // Scaled, not divided: an exclusive scan's first element is 0 on both
      // sides. A NaN fails here.
      const double want = static_cast<double>(expected[i]);
      ok = std::abs(static_cast<double>(got[i]) - want) <= tolerance * std::abs(want);
    } else {
      ok = got[i] == static_cast<T>(expected[i]);
    }
    if (!ok) {
      ++wrong;
      first_wrong = std::min(first_wrong, i);
    }
  }
  if (wrong == 0) return "ok";
  char text[160];
  std::snprintf(text, sizeof text, "%zu elements differ from %s, first at %zu: %.9g vs %.9g", wrong,
                reference, first_wrong, static_cast<double>(got[first_wrong]),
                static_cast<double>(expected[first_wrong]));
  return text;
}

// ---- segments -------------------------------------------------------------

// A segment shape: every segment `length` long, or (length == 0) lengths
// hashed from the segment index, 1 to 2048.
struct segment_shape {
  const char* name;
  std::size_t length;

  std::size_t length_of(std::uint64_t segment) const {
    return length != 0 ? length : 1 + mix_bits(input_seed ^ segment) % 2048;
  }
};

constexpr segment_shape segments_of_8{"segments of 8", 8};
constexpr segment_shape segments_of_1024{"segments of 1024", 1024};
constexpr segment_shape random_segments{"segments of 1-2048", 0};

// One byte per element, 1 where a segment starts.
std::vector<std::uint8_t> make_head_flags(std::size_t n, const segment_shape& shape) {
  std::vector<std::uint8_t> head_flags(n, 0);
  std::uint64_t segment = 0;
  for (std::size_t head = 0; head < n; head += shape.length_of(segment++))
    head_flags[head] = 1;
  return head_flags;
}

// CUB's form of the same segments: each element's key is the index of its
// segment, so adjacent keys differ exactly at the heads.
std::vector<std::int32_t> keys_of_segments(std::span<const std::uint8_t> head_flags) {
  std::vector<std::int32_t> keys(head_flags.size());
  std::int32_t segment = -1;
  for (std::size_t i = 0; i < head_flags.size(); ++i) {
    if (i == 0 || head_flags[i] != 0) ++segment;
    keys[i] = segment;
  }
  return keys;
}

// Values read, flags (one byte) read, values written.
double segmented_scan_bytes(std::size_t n, std::size_t value_bytes) {
  return static_cast<double>(n) * static_cast<double>(2 * value_bytes + sizeof(std::uint8_t));
}

row make_segmented_header(const char* backend, const segment_shape& shape, std::size_t n) {
  return make_row("segmented_scan", std::string("inclusive sum, ") + shape.name, backend, "float",
                  n, segmented_scan_bytes(n, sizeof(float)));
}

// ---- host ---------------------------------------------------------------

std::vector<row> measure_host_scan(row r) {
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  const std::span<const float> in = values.span();
  const std::unique_ptr<float[]> output(new float[r.n]);
  const std::span<float> out(output.get(), r.n);

  r.measured = time_host([&](int) { gpuprim::inclusive_scan(host, in, out); });
  std::vector<double> reference(r.n);
  std::inclusive_scan(in.begin(), in.end(), reference.begin(), std::plus<double>{}, 0.0);
  r.check = compare_scans<float, double>(out, reference, "double scan");

  // A float scan on one thread stagnates once the running sum's spacing
  // exceeds the inputs (2^25 for these values); it is timed, not checked.
  r.vendor = "std::inclusive_scan (1 thread)";
  r.vendor_measured =
      time_host([&](int) { std::inclusive_scan(in.begin(), in.end(), out.begin()); });
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  table t = api_table(ctx, "scan (host)", roofline::host_copy);
  char copy[64];
  std::snprintf(copy, sizeof copy, "%.1f GB/s", ctx.host_copy_bandwidth_gbs);
  t.notes = {
      "gpuprim::inclusive_scan(gp::host, ...) on all OpenMP threads, timed with steady_clock; "
      "std::inclusive_scan runs on one thread, for context.",
      "GB/s counts n x sizeof(T) read + n x sizeof(T) written; the roofline is every thread "
      "copying its own part of a buffer far larger than the caches, measured in this run: " +
          std::string(copy) + " (read + write).",
      "check: gpuprim's float prefix sums against double-precision ones.",
  };
  const std::size_t index = p.add_table(std::move(t));
  row header = make_header("host", "float", host_size(ctx, 27, 25), sizeof(float));
  header.variant = variant_name(scan_kind::inclusive);
  p.cases.push_back({index, header, [header] { return measure_host_scan(header); }, true});
}

std::vector<row> measure_host_segmented_scan(row r, segment_shape shape) {
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  const std::span<const float> in = values.span();
  const std::vector<std::uint8_t> head_flags = make_head_flags(r.n, shape);
  const std::unique_ptr<float[]> output(new float[r.n]);
  const std::span<float> out(output.get(), r.n);
  r.measured =
      time_host([&](int) { gpuprim::inclusive_segmented_scan(host, in, head_flags, out); });

  std::vector<float> sequential(r.n);
  r.vendor = "sequential loop (1 thread)";
  r.vendor_measured = time_host([&](int) {
    float running = 0.0f;
    for (std::size_t i = 0; i < r.n; ++i) {
      running = head_flags[i] != 0 ? in[i] : running + in[i];
      sequential[i] = running;
    }
  });
  r.check = compare_scans<float, float>(out, sequential, "sequential loop");
  return {r};
}

void plan_host_segmented_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "segmented scan (host)", roofline::host_copy,
      {
          "gpuprim::inclusive_segmented_scan(gp::host, values, head_flags, out) on all OpenMP "
          "threads against a one-thread loop, timed with steady_clock.",
          "GB/s counts n x 4 bytes of floats read, n one-byte head flags read and n x 4 bytes "
          "written; the roofline is the host copy bandwidth of this run (read + write).",
          "check: gpuprim's result against the loop's, floats within a relative 1e-3.",
      }));
  const row header = make_segmented_header("host", segments_of_1024, host_size(ctx, 27, 25));
  p.cases.push_back(
      {index, header, [header] { return measure_host_segmented_scan(header, segments_of_1024); }});
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

template <class T>
void enqueue_scan(scan_kind kind, device_span<const T> in, device_span<T> out, stream_t stream) {
  if (kind == scan_kind::exclusive) {
    gpuprim::exclusive_scan(cuda.on(stream), in, out, T{0}, plus{});
  } else {
    gpuprim::inclusive_scan(cuda.on(stream), in, out);
  }
}

// One size's random inputs and outputs, rotated past L2.
template <class T>
struct device_workload : rotated_buffers<T> {
  device_workload(std::size_t n, std::size_t l2_cache_bytes)
      : rotated_buffers<T>(random_host_array<T>(n, input_seed).span(), l2_cache_bytes) {}
};

template <class T>
std::vector<row> measure_cuda_scan(const context& ctx, row r, scan_kind kind) {
  device_workload<T> work(r.n, ctx.l2_cache_bytes);
  const stream_t stream = ctx.stream;
  const cub_scan<T> cub(kind, r.n, stream);
  r.vendor = cub_scan<T>::name(kind);
  time_device_pair(
      r, stream, [&](int run) { enqueue_scan(kind, work.input(run), work.output(run), stream); },
      [&](int run) { cub.enqueue(work.input(run).data(), work.output(run).data()); });

  cub.enqueue(work.input(0).data(), work.output(0).data());
  const std::vector<T> expected = work.first_output(stream);
  enqueue_scan(kind, work.input(0), work.output(0), stream);
  const std::vector<T> got = work.first_output(stream);
  r.check = compare_scans<T, T>(got, expected, "CUB");
  return {r};
}

constexpr span_case<scan_kind> cuda_cases[] = {
    {scan_kind::inclusive, scalar::f32, 20, true},  {scan_kind::exclusive, scalar::f32, 20, true},
    {scan_kind::inclusive, scalar::f32, 24, true},  {scan_kind::exclusive, scalar::f32, 24, true},
    {scan_kind::inclusive, scalar::f32, 28, false}, {scan_kind::exclusive, scalar::f32, 28, false},
    {scan_kind::inclusive, scalar::i32, 28, false}, {scan_kind::exclusive, scalar::i32, 28, false},
};

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "scan (cuda)", roofline::device_copy,
      {
          "gpuprim::inclusive_scan / exclusive_scan(gp::cuda.on(stream), in, out) against "
          "cub::DeviceScan::InclusiveSum / ExclusiveSum (temporary storage allocated once, outside "
          "the timed loop).",
          device_events_note(
              "n x sizeof(T) read + n x sizeof(T) written, the fewest bytes a scan must move"),
          l2_note(ctx.l2_cache_bytes, true),
          faster_note("check compares every element of the two outputs (floats within a relative "
                      "1e-3: the two round differently)."),
      }));
  add_span_rows(ctx, p, index, cuda_cases, scan_kind::inclusive, cuda_header, variant_name,
                [ctx]<class T>(const row& header, scan_kind kind) {
                  return measure_cuda_scan<T>(ctx, header, kind);
                });
}

// A segmented scan's inputs on the device: values and outputs as for a plain
// scan, plus the segments in both forms, head flags (gpuprim) and keys
// (CUB), rotated with the values so that they too come from memory.
struct segmented_workload {
  device_workload<float> values;
  std::vector<device_vector<std::uint8_t>> head_flags;
  std::vector<device_vector<std::int32_t>> keys;

  segmented_workload(std::size_t n, const segment_shape& shape, std::size_t l2_cache_bytes)
      : values(n, l2_cache_bytes) {
    const std::vector<std::uint8_t> flags = make_head_flags(n, shape);
    head_flags = device_copies<std::uint8_t>(flags, values.inputs.size());
    keys = device_copies<std::int32_t>(keys_of_segments(flags), values.inputs.size());
  }
  device_span<const std::uint8_t> flags_for(int run) const {
    return head_flags[run % head_flags.size()].span();
  }
  const std::int32_t* keys_for(int run) const { return keys[run % keys.size()].data(); }
};

std::vector<row> measure_cuda_segmented_scan(const context& ctx, row r, segment_shape shape) {
  segmented_workload work(r.n, shape, ctx.l2_cache_bytes);
  const stream_t stream = ctx.stream;
  const auto enqueue = [&](int run) {
    gpuprim::inclusive_segmented_scan(cuda.on(stream), work.values.input(run), work.flags_for(run),
                                      work.values.output(run));
  };
  const cub_inclusive_sum_by_key<float> cub(r.n, stream);
  const auto enqueue_cub = [&](int run) {
    cub.enqueue(work.keys_for(run), work.values.input(run).data(), work.values.output(run).data());
  };
  r.vendor = cub_inclusive_sum_by_key<float>::name();
  r.vendor_bytes = static_cast<double>(r.n) * (2 * sizeof(float) + sizeof(std::int32_t));
  time_device_pair(r, stream, enqueue, enqueue_cub);

  enqueue_cub(0);
  const std::vector<float> expected = work.values.first_output(stream);
  enqueue(0);
  r.check = compare_scans<float, float>(work.values.first_output(stream), expected, "CUB");
  return {r};
}

struct segmented_cuda_case {
  segment_shape shape;
  int log2_n;
  bool in_quick_runs;
};

constexpr segmented_cuda_case segmented_cuda_cases[] = {
    {segments_of_1024, 24, true}, {random_segments, 24, true}, {segments_of_1024, 28, false},
    {random_segments, 28, false}, {segments_of_8, 28, false},
};

void plan_cuda_segmented_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "segmented scan (cuda)", roofline::device_copy,
      {
          "gpuprim::inclusive_segmented_scan(gp::cuda.on(stream), values, head_flags, out) with "
          "one-byte head flags against cub::DeviceScan::InclusiveSumByKey with int32 keys (the "
          "segment's index: the same segments), temporary storage allocated once, outside the "
          "timed loop.",
          "CUDA events around each call. GB/s counts what each side must move: gpuprim n x 4 bytes "
          "of floats read + n flag bytes read + n x 4 bytes written; CUB (vendor GB/s) n x 4 bytes "
          "of keys in place of the flags. % of the device-to-device copy bandwidth of this run.",
          l2_note(ctx.l2_cache_bytes, true) + " Flags and keys rotate with the values.",
          "segments of 1-2048: lengths hashed from the segment index.",
          "vendor / gpuprim (times) above 1 means gpuprim is faster; check compares every element "
          "of the two outputs (floats within a relative 1e-3).",
      }));
  for (const segmented_cuda_case& c : kept_cases(ctx, segmented_cuda_cases)) {
    const row header = make_segmented_header("cuda", c.shape, std::size_t{1} << c.log2_n);
    p.cases.push_back(
        {index, header,
         [ctx, header, shape = c.shape] { return measure_cuda_segmented_scan(ctx, header, shape); },
         c.shape.length == 1024 && headline_size(c.log2_n)});
  }
}

// The ladder's rungs share one input set per type; the reference result is
// CUB's inclusive sum of the first copy.
template <class T>
struct ladder_inputs {
  std::unique_ptr<device_workload<T>> work;
  std::vector<T> reference;

  device_workload<T>& prepare(const context& ctx, std::size_t n) {
    if (!work) {
      work = std::make_unique<device_workload<T>>(n, ctx.l2_cache_bytes);
      const cub_scan<T> cub(scan_kind::inclusive, n, ctx.stream);
      cub.enqueue(work->input(0).data(), work->output(0).data());
      reference = work->first_output(ctx.stream);
    }
    return *work;
  }
};

template <class T>
row measure_ladder_row(const context& ctx, ladder_inputs<T>& inputs, row r,
                       const span_enqueuer<T>& enqueue) {
  device_workload<T>& work = inputs.prepare(ctx, r.n);
  r.measured =
      time_device(ctx.stream, [&](int run) { enqueue(work.input(run), work.output(run)); });
  work.outputs[0].fill_bytes(0xFF);  // an element the rung does not write fails the check
  enqueue(work.input(0), work.output(0));
  r.check = compare_scans<T, T>(work.first_output(ctx.stream), inputs.reference, "CUB");
  return r;
}

template <class T>
void plan_ladder(const context& ctx, plan& p, int log2_n) {
  table t = ladder_table(ctx, "scan ladder: inclusive sum of 2^" + std::to_string(log2_n) + " " +
                                  type_name<T>() + " (cuda)");
  t.notes = {
      "CUDA events around each call; GB/s counts n x sizeof(T) read + n x sizeof(T) written. " +
      l2_note(ctx.l2_cache_bytes, true)};
  const auto inputs = std::make_shared<ladder_inputs<T>>();
  add_span_ladder<T>(
      p, std::move(t), cuda_header.template operator()<T>(std::size_t{1} << log2_n), ctx.stream,
      ladder::scan_rungs<T>(),
      [ctx, inputs](const row& r, const span_enqueuer<T>& enqueue) {
        return measure_ladder_row<T>(ctx, *inputs, r, enqueue);
      },
      "gpuprim::inclusive_scan", enqueue_scan<T>, scan_kind::inclusive);
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

// Scans, then segmented scans, on each backend.
planners scan_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA([](const context& ctx, plan& p) {
            plan_cuda_rows(ctx, p);
            plan_cuda_segmented_rows(ctx, p);
          }),
          .host =
              [](const context& ctx, plan& p) {
                plan_host_rows(ctx, p);
                plan_host_segmented_rows(ctx, p);
              },
          .ladder = GPUPRIM_BENCH_CUDA([](const context& ctx, plan& p) {
            plan_span_ladders(ctx, [&]<class T>(int log2_n) { plan_ladder<T>(ctx, p, log2_n); });
          })};
}

}  // namespace gpuprim::bench
