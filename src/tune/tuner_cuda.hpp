// What the tuner's per-family measuring functions (src/<family>/tune_*.cpp)
// share on a CUDA device: device buffers, inputs that cover twice the L2,
// the candidate search with its result check (run_search, in
// tuner_cuda.cpp beside the timing), and the families' entry points that
// gp::tune dispatches to. Private to the library's sources.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/error.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim::tuning::cuda_tuning {

inline void check(cudaError_t status, const char* call) {
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
inline std::size_t input_copies(std::size_t bytes_per_copy) {
  const device_info info = get_device_info();
  const std::size_t want = 2 * info.l2_cache_bytes;
  return std::max<std::size_t>(1, (want + bytes_per_copy - 1) / bytes_per_copy);
}

// Bits of the index i mixed with the seed: the tuner's random inputs,
// quick to make for 2^28 values.
inline std::uint64_t index_hash(std::uint64_t i, std::uint64_t seed) {
  std::uint64_t x = (i + seed) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return x;
}

// Random values in [0, 1).
template <class T>
std::vector<T> random_values(std::uint64_t n, std::uint64_t seed) {
  std::vector<T> values(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    values[static_cast<std::size_t>(i)] =
        static_cast<T>(double(index_hash(static_cast<std::uint64_t>(i), seed) >> 11) * 0x1.0p-53);
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

// For each candidate: time enqueue(input copy) with the candidate forced,
// after checking its result (result_ok) against the default's.
// before_check (if set) runs before each candidate's checked run: an
// in-place algorithm restores its input there. Defined in tuner_cuda.cpp.
tune_result run_search(const space& s, element_type type, std::uint64_t n, double bytes_moved,
                       const tune_options& options, cudaStream_t stream, std::size_t copies,
                       const std::function<void(std::size_t)>& enqueue,
                       const std::function<bool()>& result_ok,
                       const std::function<void()>& before_check = {});

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
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
      keys[static_cast<std::size_t>(i)] =
          static_cast<K>(index_hash(static_cast<std::uint64_t>(i), seed));
    return keys;
  }
}

// A square (or 1 x 2 rectangle) of n = 2^k elements: rows 2^(k/2).
inline std::pair<std::size_t, std::size_t> square_of(std::uint64_t n, const char* what) {
  if (n < 4 || (n & (n - 1)) != 0)
    throw std::invalid_argument(std::string("tune ") + what +
                                ": n must be a power of two of at least 4 (rows x cols)");
  const int k = size_bucket(n);
  return {std::size_t(1) << (k / 2), std::size_t(1) << (k - k / 2)};
}

// The families' measuring functions (src/<family>/tune_<family>.cpp), each
// over the element types of its space.
using family_tuner = tune_result (*)(const space&, element_type, std::uint64_t,
                                     const tune_options&);
tune_result tune_reduce(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_histogram(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_segmented_reduce(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_scan(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_radix_sort(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_sorting_network(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_transpose(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_convolve(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_spmv(const space&, element_type, std::uint64_t, const tune_options&);
tune_result tune_closest_pair(const space&, element_type, std::uint64_t, const tune_options&);

}  // namespace gpuprim::tuning::cuda_tuning
