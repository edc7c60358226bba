// The histogram family's rows: gpuprim::histogram_even_into against
// cub::DeviceHistogram::HistogramEven on the GPU (bytes into 256 bins, floats
// into 1024 bins), gpuprim::histogram_even(gp::host) against a one-thread
// loop on the CPU, and the ladder of privatization rungs (DESIGN.md
// sections 6 and 7). A histogram must read every sample once, so GB/s
// counts n x sizeof(T) read (the counts are a few KiB).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/histogram.hpp"
#include "inputs.hpp"
#include "lab/ladder/ladder.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261122;

// Uniform samples: bytes over all 256 values; floats 0.5 + k * 2^-23 for
// random k < 2^23, all exactly in [0.5, 1.5) (the range of the float rows,
// so every sample is counted).
template <class T>
host_array<T> histogram_samples(std::size_t n) {
  host_array<T> array{std::unique_ptr<T[]>(new T[n]), n};
  T* out = array.data.get();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t bits = mix_bits(input_seed ^ i);
    if constexpr (std::is_same_v<T, std::uint8_t>) {
      out[i] = static_cast<T>(bits >> 56);
    } else {
      out[i] = 0.5f + static_cast<float>(bits >> 41) * 0x1.0p-23f;
    }
  }
  return array;
}

// The two shapes of the targets: 8-bit samples into one bin per value, and
// floats into 1024 bins.
struct shape {
  const char* type;
  int bins;
};

template <class T>
shape shape_of() {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    return {"uint8", 256};
  } else {
    return {"float", 1024};
  }
}

template <class T>
histogram_level_t<T> lower_of() {
  return std::is_same_v<T, std::uint8_t> ? 0 : 0.5f;
}
template <class T>
histogram_level_t<T> upper_of() {
  return std::is_same_v<T, std::uint8_t> ? 256 : 1.5f;
}

row make_header(const char* backend, const char* type, int bins, std::size_t n,
                std::size_t sample_bytes) {
  return make_row("histogram", "even, " + std::to_string(bins) + " bins", backend, type, n,
                  static_cast<double>(n) * static_cast<double>(sample_bytes));
}

template <class C>
std::string compare_counts(const std::vector<C>& got, std::uint64_t got_left_out,
                           const std::vector<C>& expected, const char* reference) {
  if (got.size() != expected.size()) return "size mismatch";
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != expected[i] && wrong++ == 0) first = i;
  }
  char text[160];
  if (wrong != 0) {
    std::snprintf(text, sizeof text, "%zu bins differ from %s, first %zu: %llu vs %llu", wrong,
                  reference, first, static_cast<unsigned long long>(got[first]),
                  static_cast<unsigned long long>(expected[first]));
    return text;
  }
  if (got_left_out != 0) {
    std::snprintf(text, sizeof text, "%llu samples left out, expected none",
                  static_cast<unsigned long long>(got_left_out));
    return text;
  }
  return "ok";
}

// ---- host ---------------------------------------------------------------

template <class T>
std::vector<row> measure_host_histogram(row r) {
  const shape s = shape_of<T>();
  const host_array<T> samples = histogram_samples<T>(r.n);
  const std::span<const T> in = samples.span();
  std::vector<std::uint64_t> counts(s.bins);
  std::uint64_t left_out = 0;
  r.measured = time_host(
      [&](int) { left_out = histogram_even(host, in, counts, lower_of<T>(), upper_of<T>()); });

  // A plain loop on one thread, as a CPU user would write it.
  std::vector<std::uint64_t> loop(s.bins);
  r.vendor = "sequential loop (1 thread)";
  r.vendor_measured = time_host([&](int) {
    std::fill(loop.begin(), loop.end(), 0);
    const double scale = s.bins / (double(upper_of<T>()) - double(lower_of<T>()));
    for (const T x : in) {
      const double v = double(x) - double(lower_of<T>());
      if (v >= 0 && v * scale < s.bins) ++loop[static_cast<std::size_t>(v * scale)];
    }
  });
  r.check = compare_counts(counts, left_out, loop, "the loop");
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "histogram (host)", roofline::host_read,
      {
          "gpuprim::histogram_even(gp::host, ...) on all OpenMP threads (per-thread histograms, "
          "merged), timed with steady_clock; a one-thread loop for context.",
          "GB/s counts n x sizeof(T) read; the roofline is every thread reading its own part of a "
          "buffer far larger than the caches, measured in this run.",
          "check: gpuprim's counts against the loop's, and no sample left out.",
      }));
  const std::size_t n = host_size(ctx, 27, 25);
  const row bytes = make_header("host", "uint8", 256, n, 1);
  p.cases.push_back(
      {index, bytes, [bytes] { return measure_host_histogram<std::uint8_t>(bytes); }, true});
  const row floats = make_header("host", "float", 1024, n, 4);
  p.cases.push_back(
      {index, floats, [floats] { return measure_host_histogram<float>(floats); }, true});
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

// Samples rotated past L2; one counts array per side (it stays in L2
// either way).
template <class T>
struct device_workload : rotated_buffers<T> {
  device_vector<std::uint32_t> counts;
  device_vector<std::uint64_t> left_out{1};

  device_workload(std::size_t n, int bins, std::size_t l2_cache_bytes)
      : rotated_buffers<T>(histogram_samples<T>(n).span(), l2_cache_bytes, false), counts(bins) {}
};

// numpy_rule: the NumPy rule's bins over the same range (numpy.histogram(x,
// bins, range=(lower, upper))): the same counts here, as no sample is upper.
template <class T>
void enqueue_gpuprim(device_span<const T> in, device_span<std::uint32_t> counts,
                     device_span<std::uint64_t> left_out, stream_t stream, bool numpy_rule) {
  if (numpy_rule) {
    histogram_even_into(cuda.on(stream), in, counts,
                        numpy_bins::with_range<T>(lower_of<T>(), upper_of<T>()), left_out);
  } else {
    histogram_even_into(cuda.on(stream), in, counts, lower_of<T>(), upper_of<T>(), left_out);
  }
}

template <class T>
std::vector<row> measure_cuda_histogram(const context& ctx, row r, bool numpy_rule = false) {
  const shape s = shape_of<T>();
  device_workload<T> work(r.n, s.bins, ctx.l2_cache_bytes);
  const stream_t stream = ctx.stream;
  using level = std::conditional_t<std::is_same_v<T, std::uint8_t>, int, float>;
  const cub_histogram_even<T, level> cub(s.bins, static_cast<level>(lower_of<T>()),
                                         static_cast<level>(upper_of<T>()), r.n, stream);
  device_vector<std::uint32_t> cub_counts(s.bins);
  r.vendor = cub_histogram_even<T, level>::name();
  time_device_pair(
      r, stream,
      [&](int run) {
        enqueue_gpuprim<T>(work.input(run), work.counts.span(), work.left_out.span(), stream,
                           numpy_rule);
      },
      [&](int run) {
        cub.enqueue(work.input(run).data(), reinterpret_cast<unsigned*>(cub_counts.data()));
      });

  cub.enqueue(work.input(0).data(), reinterpret_cast<unsigned*>(cub_counts.data()));
  work.counts.fill_bytes(0xA5);
  enqueue_gpuprim<T>(work.input(0), work.counts.span(), work.left_out.span(), stream, numpy_rule);
  synchronize(stream);
  r.check =
      compare_counts(to_host(work.counts), to_host(work.left_out)[0], to_host(cub_counts), "CUB");
  return {r};
}

struct cuda_case {
  bool bytes;  // uint8 into 256 bins, else float into 1024
  int log2_n;
  bool in_quick_runs;
  bool numpy_rule = false;  // floats: gp::numpy_bins instead of lower, upper
};

constexpr cuda_case cuda_cases[] = {
    {true, 22, true},  {false, 22, true},  {true, 24, true},         {false, 24, false},
    {true, 28, false}, {false, 28, false}, {false, 22, false, true}, {false, 28, false, true},
};

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "histogram (cuda)", roofline::device_copy,
      {
          "gpuprim::histogram_even_into(gp::cuda.on(stream), samples, counts, lower, upper, "
          "left_out) with uint32 counts against cub::DeviceHistogram::HistogramEven (temporary "
          "storage allocated once, outside the timed loop): uint8 samples into 256 bins over [0, "
          "256), float samples in [0.5, 1.5) into 1024 bins over [0.5, 1.5); the 'numpy rule' rows "
          "pass numpy_bins::with_range<float>(0.5, 1.5) instead (numpy.histogram's edges, compared "
          "in float).",
          "CUDA events around each call; GB/s counts n x sizeof(T) read; % of the device-to-device "
          "copy bandwidth (read + write) of this run.",
          l2_note(ctx.l2_cache_bytes, false),
          faster_note("check compares every bin with CUB's and requires no sample left out."),
      }));
  for (const cuda_case& c : kept_cases(ctx, cuda_cases)) {
    const std::size_t n = std::size_t{1} << c.log2_n;
    if (c.bytes) {
      const row header = make_header("cuda", "uint8", 256, n, 1);
      p.cases.push_back(
          {index, header,
           [ctx, header] { return measure_cuda_histogram<std::uint8_t>(ctx, header); },
           headline_size(c.log2_n)});
    } else {
      row header = make_header("cuda", "float", 1024, n, 4);
      if (c.numpy_rule) header.variant = "even, numpy rule, 1024 bins";
      const bool numpy_rule = c.numpy_rule;
      p.cases.push_back({index, header,
                         [ctx, header, numpy_rule] {
                           return measure_cuda_histogram<float>(ctx, header, numpy_rule);
                         },
                         !numpy_rule && headline_size(c.log2_n)});
    }
  }
}

// The ladder: 64 bins of bytes (bin = byte / 4); every row's counts are
// compared with CUB's.
struct ladder_inputs {
  std::unique_ptr<device_workload<std::uint8_t>> work;
  std::vector<std::uint32_t> reference;

  device_workload<std::uint8_t>& prepare(const context& ctx, std::size_t n) {
    if (!work) {
      work = std::make_unique<device_workload<std::uint8_t>>(n, ladder::histogram_ladder_bins,
                                                             ctx.l2_cache_bytes);
      const cub_histogram_even<std::uint8_t, int> cub(ladder::histogram_ladder_bins, 0, 256, n,
                                                      ctx.stream);
      cub.enqueue(work->input(0).data(), reinterpret_cast<unsigned*>(work->counts.data()));
      synchronize(ctx.stream);
      reference = to_host(work->counts);
    }
    return *work;
  }
};

using histogram_enqueuer =
    std::function<void(device_span<const std::uint8_t> in, device_span<std::uint32_t> counts)>;

row measure_ladder_row(const context& ctx, ladder_inputs& inputs, row r,
                       const histogram_enqueuer& enqueue) {
  device_workload<std::uint8_t>& work = inputs.prepare(ctx, r.n);
  r.measured =
      time_device(ctx.stream, [&](int run) { enqueue(work.input(run), work.counts.span()); });
  work.counts.fill_bytes(0xA5);
  enqueue(work.input(0), work.counts.span());
  synchronize(ctx.stream);
  r.check = compare_counts(to_host(work.counts), 0, inputs.reference, "CUB");
  return r;
}

void plan_ladder(const context& ctx, plan& p, int log2_n) {
  table t = ladder_table(
      ctx, "histogram ladder: 64 bins of 2^" + std::to_string(log2_n) + " uint8 (cuda)");
  t.notes = {
      "bin = byte / 4. The last rung is the production histogram_even; CUB's HistogramEven with "
      "the same 64 bins follows for reference.",
      "CUDA events around each call (each rung zeroes its counts first); GB/s counts n bytes "
      "read. " +
          l2_note(ctx.l2_cache_bytes, false),
  };
  const auto inputs = std::make_shared<ladder_inputs>();
  const stream_t stream = ctx.stream;
  const std::size_t n = std::size_t{1} << log2_n;
  auto rows = make_ladder_rows<histogram_enqueuer>(
      p, p.add_table(std::move(t)),
      make_header("cuda", "uint8", ladder::histogram_ladder_bins, n, 1),
      [ctx, inputs](const row& r, const histogram_enqueuer& enqueue) {
        return measure_ladder_row(ctx, *inputs, r, enqueue);
      });
  rows.add_rungs(ladder::histogram_rungs(), [stream](auto run) -> histogram_enqueuer {
    return [run, stream](device_span<const std::uint8_t> in, device_span<std::uint32_t> counts) {
      run(in, counts, stream);
    };
  });
  // CUB's object is made on the first (warm-up) call, so its allocation is
  // not timed.
  using cub_bytes = cub_histogram_even<std::uint8_t, int>;
  const auto cub = std::make_shared<std::unique_ptr<cub_bytes>>();
  rows.add("cub", cub_bytes::name(), "(reference) the vendor library",
           [cub, n, stream](device_span<const std::uint8_t> in, device_span<std::uint32_t> counts) {
             if (!*cub) {
               *cub = std::make_unique<cub_bytes>(ladder::histogram_ladder_bins, 0, 256, n, stream);
             }
             (*cub)->enqueue(in.data(), reinterpret_cast<unsigned*>(counts.data()));
           });
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners histogram_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, [](const context& ctx, plan& p) {
    plan_ladder(ctx, p, ctx.quick ? 24 : 28);
  });
}

}  // namespace gpuprim::bench
