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
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "gpuprim/convolve.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/timing.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "gpuprim/sort.hpp"
#include "gpuprim/sorting_network.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "gpuprim/transpose.hpp"
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
// before_check (if set) runs before each candidate's checked run: an
// in-place algorithm restores its input there.
template <class Enqueue, class ResultOk>
tune_result run_search(const space& s, element_type type, std::uint64_t n, double bytes_moved,
                       const tune_options& options, cudaStream_t stream, std::size_t copies,
                       Enqueue enqueue, ResultOk result_ok,
                       const std::function<void()>& before_check = {}) {
  std::map<int, kernel_report> reports;
  const measure_fn measure = [&](const config& c) {
    if (options.progress) options.progress(c);
    const forced_config forced(s.id, c);
    measurement m;
    try {
      if (before_check) before_check();
      tuning::detail::want_kernel_report();
      enqueue(0);
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      reports[s.index_of(c)] = tuning::detail::take_kernel_report();
      if (!result_ok()) return measurement{0.0, 0.0, false};
      // Isolated runs (the host waits for each): median and interquartile range.
      const gpuprim::detail::timing t = gpuprim::detail::time_device(
          stream, [&](int call) { enqueue(static_cast<std::size_t>(call) % copies); },
          {.warmup_runs = options.warmup_runs, .timed_runs = options.timed_runs});
      m = measurement{t.median_us, t.spread_us, true};
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

// ---- the families plugged in later: shared pieces -----------------------------

// A stream of its own for one tuning job.
struct tuning_stream {
  cudaStream_t stream = nullptr;
  tuning_stream() {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~tuning_stream() { cudaStreamDestroy(stream); }
  tuning_stream(const tuning_stream&) = delete;
  tuning_stream& operator=(const tuning_stream&) = delete;
};

// `count` values at `device` (the host waits for the stream first).
template <class T>
std::vector<T> copy_back(const T* device, std::size_t count, cudaStream_t stream) {
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<T> host(count);
  check(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return host;
}

// The default's result of `enqueue(0)`, read back by `result`.
template <class Enqueue, class Result>
auto default_result(const space& s, cudaStream_t stream, Enqueue& enqueue, Result& result) {
  const forced_config forced(s.id, s.default_config);
  enqueue(0);
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return result();
}

// The search of the families whose every candidate must give the default's
// result exactly (sorts, transpose): the default's result is the reference.
template <class Enqueue, class Result>
tune_result search_for_equal_results(const space& s, element_type type, std::uint64_t n,
                                     double bytes_moved, const tune_options& options,
                                     cudaStream_t stream, std::size_t copies, Enqueue enqueue,
                                     Result result,
                                     const std::function<void()>& before_check = {}) {
  const auto reference = default_result(s, stream, enqueue, result);
  auto result_ok = [&] { return result() == reference; };
  return run_search(s, type, n, bytes_moved, options, stream, copies, enqueue, result_ok,
                    before_check);
}

// Every value within `relative` of the reference's (relative to 1 + |reference|).
template <class T>
bool agrees(const std::vector<T>& values, const std::vector<T>& reference, double relative) {
  if (values.size() != reference.size()) return false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double r = double(reference[i]);
    if (!(std::abs(double(values[i]) - r) <= relative * (1.0 + std::abs(r)))) return false;
  }
  return true;
}

// Keys spread over their whole range: hash bits for integers, [0, 1) for floats.
template <class K>
std::vector<K> random_keys(std::uint64_t n, std::uint64_t seed) {
  if constexpr (std::is_floating_point_v<K>) {
    return random_values<K>(n, seed);
  } else {
    std::vector<K> keys(n);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      std::uint64_t x = (static_cast<std::uint64_t>(i) + seed) * 0x9e3779b97f4a7c15ull;
      x ^= x >> 31;
      x *= 0xbf58476d1ce4e5b9ull;
      x ^= x >> 29;
      keys[static_cast<std::size_t>(i)] = static_cast<K>(x);
    }
    return keys;
  }
}

// A square (or 1 x 2 rectangle) of n = 2^k elements: rows 2^(k/2).
std::pair<std::size_t, std::size_t> square_of(std::uint64_t n, const char* what) {
  if (n < 4 || (n & (n - 1)) != 0)
    throw std::invalid_argument(std::string("tune ") + what +
                                ": n must be a power of two of at least 4 (rows x cols)");
  const int k = size_bucket(n);
  return {std::size_t(1) << (k / 2), std::size_t(1) << (k - k / 2)};
}

// ---- scan and segmented scan ----------------------------------------------------

// Inclusive sums of values in [0, 1); segmented: segments of 1024. The
// prefetch distance does not change how the sums are grouped, so every
// candidate must give the default's sums (a tolerance is kept all the same).
template <class T>
tune_result tune_scan(const space& s, element_type type, std::uint64_t n,
                      const tune_options& options, bool segmented) {
  if (n == 0) throw std::invalid_argument("tune " + s.name + ": n must be positive");
  const tuning_input input(random_values<T>(n, 4));
  device_buffer out(n * sizeof(T));
  device_buffer flags(segmented ? n : 1);
  if (segmented) {
    std::vector<std::uint8_t> heads(n, 0);
    for (std::uint64_t i = 0; i < n; i += 1024)
      heads[i] = 1;
    check(cudaMemcpy(flags.as<std::uint8_t>(), heads.data(), n, cudaMemcpyHostToDevice),
          "cudaMemcpy");
  }
  auto enqueue = [&](std::size_t copy) {
    const T* in = input.data->as<T>() + copy * n;
    if (segmented) {
      gpuprim::detail::cuda_scan_into(
          in, out.as<T>(), n, scan_kind::inclusive, flagged<T>{}, gpuprim::segmented<plus>{},
          gpuprim::detail::head_flag_fetch<T, std::uint8_t>{flags.as<std::uint8_t>()},
          input.stream);
    } else {
      gpuprim::detail::cuda_scan_into(in, out.as<T>(), n, scan_kind::inclusive, T{}, plus{},
                                      gpuprim::detail::unary_fetch<identity>{}, input.stream);
    }
  };
  auto result = [&] { return copy_back(out.as<T>(), n, input.stream); };
  const std::vector<T> reference = default_result(s, input.stream, enqueue, result);
  const double tolerance = 4.0 * (std::log2(double(n)) + 1) * std::numeric_limits<T>::epsilon();
  auto result_ok = [&] { return agrees(result(), reference, tolerance); };
  const double bytes = double(n) * (2 * sizeof(T) + (segmented ? 1 : 0));
  return run_search(s, type, n, bytes, options, input.stream, input.copies, enqueue, result_ok);
}

// ---- radix sort -------------------------------------------------------------------

// Keys-only ascending sorts, out of place (the input copies stay unsorted);
// every candidate must give the default's keys exactly.
template <class K>
tune_result tune_radix_sort(const space& s, element_type type, std::uint64_t n,
                            const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune radix_sort: n must be positive");
  const tuning_input input(random_keys<K>(n, 5));
  device_buffer out(n * sizeof(K));
  const gpuprim::detail::radix_sort_plan plan =
      gpuprim::detail::make_radix_sort_plan<K>(n, sort_order::ascending, {}, 0, "tune");
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_radix_sort(input.data->as<K>() + copy * n, out.as<K>(), nullptr, nullptr,
                                     plan, input.stream);
  };
  auto result = [&] { return copy_back(out.as<K>(), n, input.stream); };
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(K), options, input.stream,
                                  input.copies, enqueue, result);
}

// ---- sorting networks ---------------------------------------------------------------

// The bitonic sort of the whole array (n a power of two), in place. A
// network does the same work whatever the order of its input, so the timed
// runs may sort copies sorted by earlier runs; the checked run gets
// unsorted input again (restored from a pristine copy).
template <class T>
tune_result tune_sorting_network(const space& s, element_type type, std::uint64_t n,
                                 const tune_options& options) {
  if (n < 2 || (n & (n - 1)) != 0)
    throw std::invalid_argument("tune sorting_network: n must be a power of two of at least 2");
  const std::vector<T> keys = random_keys<T>(n, 6);
  const tuning_input input(keys);
  device_buffer pristine(n * sizeof(T));
  check(cudaMemcpy(pristine.as<T>(), keys.data(), n * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  auto restore = [&] {
    check(cudaMemcpyAsync(input.data->as<T>(), pristine.as<T>(), n * sizeof(T),
                          cudaMemcpyDeviceToDevice, input.stream),
          "cudaMemcpyAsync");
  };
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_bitonic_sort(input.data->as<T>() + copy * n, n, sort_less{},
                                       input.stream);
  };
  auto result = [&] { return copy_back(input.data->as<T>(), n, input.stream); };
  restore();
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream,
                                  input.copies, enqueue, result, restore);
}

// ---- transpose --------------------------------------------------------------------

// A rows x cols matrix of E (uint32: any 4-byte element, uint64: any 8-byte
// one) into a separate output; every candidate must move every element to
// the default's place.
template <class E>
tune_result tune_transpose(const space& s, element_type type, std::uint64_t n,
                           const tune_options& options) {
  const auto [rows, cols] = square_of(n, "transpose");
  const tuning_input input(random_keys<E>(n, 7));
  device_buffer out(n * sizeof(E));
  gpuprim::detail::transpose_shape shape;
  shape.rows = rows;
  shape.cols = cols;
  shape.ld_in = cols;
  shape.ld_out = rows;
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_transpose_sized<sizeof(E)>(input.data->as<E>() + copy * n, out.as<E>(),
                                                     shape, input.stream);
  };
  auto result = [&] { return copy_back(out.as<E>(), n, input.stream); };
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(E), options, input.stream,
                                  input.copies, enqueue, result);
}

// ---- convolution --------------------------------------------------------------------

// One rows x cols image (n pixels) through a general 5 x 5 filter of
// random weights, mirrored borders. Another kernel variant may contract
// the 25 products differently: a tolerance of a few roundings.
template <class T>
tune_result tune_convolve(const space& s, element_type type, std::uint64_t n,
                          const tune_options& options) {
  const auto [rows, cols] = square_of(n, "convolve");
  const tuning_input input(random_values<T>(n, 8));
  device_buffer out(n * sizeof(T));
  std::vector<double> weights(25);
  {
    const std::vector<double> unit = random_values<double>(25, 9);
    for (std::size_t i = 0; i < 25; ++i)
      weights[i] = 0.02 + unit[i] / 12.5;  // nonzero, about 1 in all
  }
  const gpuprim::detail::convolve_plan plan =
      gpuprim::detail::make_general_plan("convolve", filter(5, 5, weights), border::mirror, true);
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::convolve_images<T> images;
    images.in = input.data->as<T>() + copy * n;
    images.out = out.as<T>();
    images.count = 1;
    images.rows = rows;
    images.cols = cols;
    images.in_ld = cols;
    images.in_stride = n;
    images.out_ld = cols;
    images.out_stride = n;
    gpuprim::detail::cuda_convolve(images, plan, input.stream);
  };
  auto result = [&] { return copy_back(out.as<T>(), n, input.stream); };
  const std::vector<T> reference = default_result(s, input.stream, enqueue, result);
  auto result_ok = [&] {
    return agrees(result(), reference, 64.0 * std::numeric_limits<T>::epsilon());
  };
  return run_search(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream, input.copies,
                    enqueue, result_ok);
}

// ---- SpMV -----------------------------------------------------------------------------

// y = A x for the 5-point Poisson matrix of a side x side grid (n = side^2
// rows), with copies of the matrix covering twice the L2. The grid does not
// change how a row is summed; a tolerance is kept all the same.
template <class T>
tune_result tune_spmv(const space& s, element_type type, std::uint64_t n,
                      const tune_options& options) {
  const auto [side, other_side] = square_of(n, "spmv");
  if (side != other_side)
    throw std::invalid_argument("tune spmv: n must be a square (an even power of two)");
  const csr_matrix<T, int> host = poisson2d<T, int>(side);
  const double matrix_bytes = double(host.values().size()) * (sizeof(T) + sizeof(int)) +
                              double(host.rows() + 1) * sizeof(int);
  const std::size_t copies = input_copies(static_cast<std::size_t>(matrix_bytes));
  std::vector<device_csr_matrix<T, int>> matrices;
  for (std::size_t c = 0; c < copies; ++c)
    matrices.push_back(to_device(host));
  const std::vector<T> x_host = random_values<T>(host.cols(), 10);
  device_buffer x(x_host.size() * sizeof(T));
  check(cudaMemcpy(x.as<T>(), x_host.data(), x_host.size() * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  device_buffer y(host.rows() * sizeof(T));
  const tuning_stream stream;
  const spmv_choice choice = choose_spmv_kernel(host.stats());
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_spmv<T, int>(T(1), matrices[copy].view(), x.as<T>(), T(0), y.as<T>(),
                                       choice, stream.stream);
  };
  auto result = [&] { return copy_back(y.as<T>(), host.rows(), stream.stream); };
  const std::vector<T> reference = default_result(s, stream.stream, enqueue, result);
  auto result_ok = [&] {
    return agrees(result(), reference, 16.0 * std::numeric_limits<T>::epsilon());
  };
  const double bytes = matrix_bytes + double(host.cols() + host.rows()) * sizeof(T);
  return run_search(s, type, n, bytes, options, stream.stream, copies, enqueue, result_ok);
}

// ---- closest pair -----------------------------------------------------------------

// n random points in the unit square, the grid algorithm. Any cell size
// finds the same pair (the library breaks ties the same way): every
// candidate must give the default's pair and distance exactly. A call
// returns to the host with its answer, so the times include its host steps.
template <class T>
tune_result tune_closest_pair(const space& s, element_type type, std::uint64_t n,
                              const tune_options& options) {
  if (n < 2) throw std::invalid_argument("tune closest_pair: n must be at least 2");
  const tuning_input input(random_values<T>(2 * n, 11));  // x then y, per copy
  closest_pair_result last;
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::point_set<T> points;
    points.coord[0] = input.data->as<T>() + copy * 2 * n;
    points.coord[1] = points.coord[0] + n;
    points.n = n;
    points.dim = 2;
    last = gpuprim::detail::cuda_closest_pair(points, closest_pair_algorithm::grid, input.stream);
  };
  auto result = [&] { return last; };
  const closest_pair_result reference = default_result(s, input.stream, enqueue, result);
  auto result_ok = [&] {
    return last.i == reference.i && last.j == reference.j &&
           last.squared_distance == reference.squared_distance;
  };
  return run_search(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream, input.copies,
                    enqueue, result_ok);
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
    case tuning::algorithm::scan:
    case tuning::algorithm::segmented_scan: {
      const bool segmented = s->id == tuning::algorithm::segmented_scan;
      return type == tuning::element_type::f64 ? tune_scan<double>(*s, type, n, options, segmented)
                                               : tune_scan<float>(*s, type, n, options, segmented);
    }
    case tuning::algorithm::radix_sort:
      if (type == tuning::element_type::u64)
        return tune_radix_sort<std::uint64_t>(*s, type, n, options);
      if (type == tuning::element_type::f32) return tune_radix_sort<float>(*s, type, n, options);
      return tune_radix_sort<std::uint32_t>(*s, type, n, options);
    case tuning::algorithm::sorting_network:
      return type == tuning::element_type::u32
                 ? tune_sorting_network<std::uint32_t>(*s, type, n, options)
                 : tune_sorting_network<float>(*s, type, n, options);
    case tuning::algorithm::transpose:
      return type == tuning::element_type::u64
                 ? tune_transpose<std::uint64_t>(*s, type, n, options)
                 : tune_transpose<std::uint32_t>(*s, type, n, options);
    case tuning::algorithm::convolve:
      return type == tuning::element_type::f64 ? tune_convolve<double>(*s, type, n, options)
                                               : tune_convolve<float>(*s, type, n, options);
    case tuning::algorithm::spmv:
      return type == tuning::element_type::f64 ? tune_spmv<double>(*s, type, n, options)
                                               : tune_spmv<float>(*s, type, n, options);
    case tuning::algorithm::closest_pair:
      return type == tuning::element_type::f32 ? tune_closest_pair<float>(*s, type, n, options)
                                               : tune_closest_pair<double>(*s, type, n, options);
    default:
      break;
  }
  throw std::invalid_argument("tune: '" + s->name + "' has no tuner yet");
}

}  // namespace gpuprim
