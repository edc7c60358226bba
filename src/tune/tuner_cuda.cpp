// gp::tune on a CUDA device: each candidate runs through the library's own
// entry point with the config forced on this thread (tuning::detail::force),
// so the tuner measures exactly the code a later call runs, and needs no
// kernels of its own.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "gpuprim/segmented.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim {
namespace tuning {
bool tuning_available() {
  return cuda_device_count() > 0;
}
}  // namespace tuning

namespace {

using namespace tuning;

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw cuda_error(status, call, "tune", cudaGetErrorString(status));
}

class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) : bytes_(bytes) {
    check(cudaMalloc(&ptr_, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  }
  ~device_buffer() { cudaFree(ptr_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

class event_pair {
 public:
  event_pair() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~event_pair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// Median and interquartile range of isolated runs of enqueue(i) (events
// around each run, the host waiting for it), after warm-up runs.
template <class Enqueue>
measurement time_runs(cudaStream_t stream, int warmup, int runs, Enqueue enqueue) {
  event_pair events;
  int call = 0;
  for (int i = 0; i < warmup; ++i)
    enqueue(call++);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    check(cudaEventRecord(events.start_, stream), "cudaEventRecord");
    enqueue(call++);
    check(cudaEventRecord(events.stop_, stream), "cudaEventRecord");
    check(cudaEventSynchronize(events.stop_), "cudaEventSynchronize");
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, events.start_, events.stop_), "cudaEventElapsedTime");
    samples.push_back(double(ms) * 1e3);
  }
  std::sort(samples.begin(), samples.end());
  auto at = [&](double q) { return samples[static_cast<std::size_t>(q * (samples.size() - 1))]; };
  return {at(0.5), at(0.75) - at(0.25), true};
}

// Copies of the input, one after another, covering at least twice the L2
// cache, so that runs rotating through them read from memory, not L2.
std::size_t input_copies(std::size_t bytes_per_copy) {
  const device_info info = get_device_info();
  const std::size_t want = 2 * info.l2_cache_bytes;
  return std::max<std::size_t>(1, (want + bytes_per_copy - 1) / bytes_per_copy);
}

// Random values in [0, 1) (a hash of the index: quick to make for 2^28).
template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed) {
  std::vector<T> values(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
    std::uint64_t x = (static_cast<std::uint64_t>(i) + seed) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    values[static_cast<std::size_t>(i)] = static_cast<T>(double(x >> 11) * 0x1.0p-53);
  }
  return values;
}

// Forces `c` for this thread's calls of `a` while alive.
class forced_config {
 public:
  forced_config(algorithm a, const config& c) : a_(a), c_(c) { tuning::detail::force(a_, &c_); }
  ~forced_config() { tuning::detail::force(a_, nullptr); }
  forced_config(const forced_config&) = delete;
  forced_config& operator=(const forced_config&) = delete;

 private:
  algorithm a_;
  config c_;
};

// The common loop: for each candidate, time enqueue(input copy, candidate)
// and check its result (result_ok) against the default's.
template <class Enqueue, class ResultOk>
tune_result run_search(const space& s, element_type type, std::uint64_t n, double bytes_moved,
                       const tune_options& options, cudaStream_t stream, std::size_t copies,
                       Enqueue enqueue, ResultOk result_ok) {
  std::map<int, kernel_report> reports;
  const measure_fn measure = [&](const config& c) {
    if (options.progress) options.progress(c);
    const forced_config forced(s.id, c);
    measurement m;
    try {
      tuning::detail::want_kernel_report();
      enqueue(0);
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      reports[s.index_of(c)] = tuning::detail::take_kernel_report();
      if (!result_ok()) return measurement{0.0, 0.0, false};
      m = time_runs(stream, options.warmup_runs, options.timed_runs,
                    [&](int call) { enqueue(static_cast<std::size_t>(call) % copies); });
    } catch (const cuda_error&) {
      cudaGetLastError();
      return measurement{0.0, 0.0, false};
    }
    return m;
  };
  search_result found = search(s, measure, options.search);
  if (found.winner != 0) {
    // Confirmation: the default and the winner again, alternately, three
    // times each; the winner stays only if the medians of those runs still
    // put it ahead by more than the noise (machines drift during a search).
    std::vector<double> again_default, again_winner;
    bool all_ran = true;
    for (int round = 0; round < 3; ++round) {
      const measurement d = measure(found.default_trial().candidate);
      const measurement w = measure(found.best().candidate);
      all_ran = all_ran && d.ok && w.ok;
      again_default.push_back(d.median_us);
      again_winner.push_back(w.median_us);
    }
    std::sort(again_default.begin(), again_default.end());
    std::sort(again_winner.begin(), again_winner.end());
    const std::vector<trial> pair = {
        {found.default_trial().candidate,
         {again_default[1], found.default_trial().time.spread_us, true}},
        {found.best().candidate, {again_winner[1], found.best().time.spread_us, true}}};
    if (!all_ran || pick_winner(pair, options.search.noise_floor) == 0) found.winner = 0;
  }
  tune_result result;
  result.algorithm = &s;
  result.type = type;
  result.n = n;
  result.exhaustive = found.exhaustive;
  result.winner = found.winner;
  for (const trial& t : found.trials) {
    candidate_row row{t.candidate, t.time, 0.0, reports[s.index_of(t.candidate)]};
    if (t.time.ok && t.time.median_us > 0.0) row.gbs = bytes_moved / (t.time.median_us * 1e3);
    result.rows.push_back(row);
  }
  return result;
}

template <class T>
tune_result tune_reduce(const space& s, element_type type, std::uint64_t n,
                        const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune reduce: n must be positive");
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  struct stream_guard {
    cudaStream_t s;
    ~stream_guard() { cudaStreamDestroy(s); }
  } guard{stream};

  const std::size_t copies = input_copies(n * sizeof(T));
  device_buffer input(copies * n * sizeof(T));
  {
    const std::vector<T> values = random_values<T>(n, 1);
    check(cudaMemcpy(input.as<T>(), values.data(), n * sizeof(T), cudaMemcpyHostToDevice),
          "cudaMemcpy");
  }
  for (std::size_t c = 1; c < copies; ++c)
    check(cudaMemcpy(input.as<T>() + c * n, input.as<T>(), n * sizeof(T), cudaMemcpyDeviceToDevice),
          "cudaMemcpy");
  device_buffer out(sizeof(T));
  const auto fetch = gpuprim::detail::unary_fetch<identity>{};
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_reduce_into(input.as<T>() + copy * n, n, out.as<T>(), T{}, plus{}, fetch,
                                      stream);
  };
  auto result_of = [&] {
    T value{};
    check(cudaMemcpy(&value, out.as<T>(), sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return value;
  };
  T reference{};
  {
    const forced_config forced(s.id, s.default_config);
    enqueue(0);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    reference = result_of();
  }
  // Another grid groups the sum differently: allow the rounding of a
  // tree of log2(n) levels, twice.
  const double tolerance =
      4.0 * (std::log2(double(n)) + 1) * std::numeric_limits<T>::epsilon() * std::abs(reference);
  auto result_ok = [&] {
    const T value = result_of();
    return std::abs(double(value) - double(reference)) <= tolerance;
  };
  return run_search(s, type, n, double(n) * sizeof(T), options, stream, copies, enqueue, result_ok);
}

// A memory-bound run over fresh input: a stream, and copies of n values
// covering twice the L2.
struct tuning_input {
  cudaStream_t stream = nullptr;
  std::size_t copies = 1;
  std::unique_ptr<device_buffer> data;
  tuning_input(const tuning_input&) = delete;
  tuning_input& operator=(const tuning_input&) = delete;
  template <class T>
  tuning_input(const std::vector<T>& values) {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    const std::size_t bytes = values.size() * sizeof(T);
    copies = input_copies(bytes);
    data = std::make_unique<device_buffer>(copies * bytes);
    check(cudaMemcpy(data->as<char>(), values.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    for (std::size_t c = 1; c < copies; ++c)
      check(cudaMemcpy(data->as<char>() + c * bytes, data->as<char>(), bytes,
                       cudaMemcpyDeviceToDevice),
            "cudaMemcpy");
  }
  ~tuning_input() { cudaStreamDestroy(stream); }
};

// Histogram: bytes into their 256 values, or floats in [0, 1) into 1024
// even bins. Counts are exact whatever the grid: every candidate must give
// the default's counts.
template <class T>
tune_result tune_histogram(const space& s, element_type type, std::uint64_t n,
                           const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune histogram: n must be positive");
  std::vector<T> values(n);
  {
    const std::vector<double> unit = random_values<double>(n, 2);
    for (std::size_t i = 0; i < n; ++i)
      values[i] = sizeof(T) == 1 ? static_cast<T>(unit[i] * 256.0) : static_cast<T>(unit[i]);
  }
  const tuning_input input(values);
  values = {};
  const int bins = sizeof(T) == 1 ? 256 : 1024;
  const auto binner = sizeof(T) == 1 ? gpuprim::detail::even_binner<T>(0, 256, bins)
                                     : gpuprim::detail::even_binner<T>(0, 1, bins);
  device_buffer counts(bins * sizeof(std::uint32_t));
  device_buffer left_out(sizeof(std::uint64_t));
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_histogram_into(input.data->as<T>() + copy * n, n,
                                         counts.as<std::uint32_t>(), bins, binner,
                                         left_out.as<std::uint64_t>(), input.stream);
  };
  auto counts_now = [&] {
    std::vector<std::uint32_t> c(static_cast<std::size_t>(bins));
    check(cudaMemcpy(c.data(), counts.as<std::uint32_t>(), c.size() * 4, cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    return c;
  };
  std::vector<std::uint32_t> reference;
  {
    const forced_config forced(s.id, s.default_config);
    enqueue(0);
    check(cudaStreamSynchronize(input.stream), "cudaStreamSynchronize");
    reference = counts_now();
  }
  auto result_ok = [&] { return counts_now() == reference; };
  return run_search(s, type, n, double(n) * sizeof(T), options, input.stream, input.copies, enqueue,
                    result_ok);
}

// Segmented reduce: sums of segments of 1024 elements (the headline case),
// n elements in all. Each segment's sum is grouped the same whatever the
// grid; a tolerance still allows a candidate another grouping.
template <class T>
tune_result tune_segmented_reduce(const space& s, element_type type, std::uint64_t n,
                                  const tune_options& options) {
  constexpr std::uint64_t segment = 1024;
  if (n == 0) throw std::invalid_argument("tune segmented_reduce: n must be positive");
  const tuning_input input(random_values<T>(n, 3));
  const std::uint64_t segments = (n + segment - 1) / segment;
  std::vector<std::uint64_t> host_offsets(segments + 1);
  for (std::uint64_t i = 0; i <= segments; ++i)
    host_offsets[i] = std::min(n, i * segment);
  device_buffer offsets(host_offsets.size() * sizeof(std::uint64_t));
  check(cudaMemcpy(offsets.as<std::uint64_t>(), host_offsets.data(),
                   host_offsets.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  device_buffer out(segments * sizeof(T));
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_segmented_reduce_into(input.data->as<T>() + copy * n, n,
                                                offsets.as<std::uint64_t>(), segments, out.as<T>(),
                                                T{}, plus{}, input.stream);
  };
  auto sums_now = [&] {
    std::vector<T> sums(segments);
    check(cudaMemcpy(sums.data(), out.as<T>(), segments * sizeof(T), cudaMemcpyDeviceToHost),
          "cudaMemcpy");
    return sums;
  };
  std::vector<T> reference;
  {
    const forced_config forced(s.id, s.default_config);
    enqueue(0);
    check(cudaStreamSynchronize(input.stream), "cudaStreamSynchronize");
    reference = sums_now();
  }
  auto result_ok = [&] {
    const std::vector<T> sums = sums_now();
    const double eps = 4.0 * 11 * std::numeric_limits<T>::epsilon();
    for (std::size_t i = 0; i < sums.size(); ++i) {
      if (!(std::abs(double(sums[i]) - double(reference[i])) <= eps * std::abs(reference[i])))
        return false;
    }
    return true;
  };
  const double bytes = double(n) * sizeof(T) + double(segments) * (sizeof(T) + 8);
  return run_search(s, type, n, bytes, options, input.stream, input.copies, enqueue, result_ok);
}

}  // namespace

tuning::tune_result tune(std::string_view algorithm_name, std::string_view type_name,
                         std::uint64_t n, const tuning::tune_options& options) {
  const tuning::space* s = tuning::find_space(algorithm_name);
  if (!s)
    throw std::invalid_argument("tune: unknown algorithm '" + std::string(algorithm_name) + "'");
  const tuning::element_type type = tuning::parse_element_type(type_name);
  if (std::find(s->types.begin(), s->types.end(), type) == s->types.end())
    throw std::invalid_argument("tune " + s->name + ": no tuning inputs for type '" +
                                std::string(type_name) + "'");
  if (!tuning::tuning_available())
    throw cuda_error(cudaErrorNoDevice, "cudaGetDeviceCount", "tune", "no CUDA device");
  switch (s->id) {
    case tuning::algorithm::reduce:
      return type == tuning::element_type::f64 ? tune_reduce<double>(*s, type, n, options)
                                               : tune_reduce<float>(*s, type, n, options);
    case tuning::algorithm::histogram:
      return type == tuning::element_type::u8 ? tune_histogram<std::uint8_t>(*s, type, n, options)
                                              : tune_histogram<float>(*s, type, n, options);
    case tuning::algorithm::segmented_reduce:
      return type == tuning::element_type::f64 ? tune_segmented_reduce<double>(*s, type, n, options)
                                               : tune_segmented_reduce<float>(*s, type, n, options);
    default:
      break;
  }
  throw std::invalid_argument("tune: '" + s->name + "' has no tuner yet");
}

}  // namespace gpuprim
