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

// One tuning job: the space, the element type, the size and the options;
// for the families whose input is a matrix of n elements, its shape (n =
// rows x cols, rows = 2^(k/2) for n = 2^k).
struct tuning_job {
  const space& s;
  element_type type;
  std::uint64_t n;
  const tune_options& options;
  std::size_t rows = 0;
  std::size_t cols = 0;
};

// For each candidate: time enqueue(input copy) with the candidate forced,
// after checking its result (result_ok) against the default's.
// before_check (if set) runs before each candidate's checked run: an
// in-place algorithm restores its input there. Throughput is bytes_moved
// per median time. Defined in tuner_cuda.cpp.
tune_result run_search(const tuning_job& job, double bytes_moved, cudaStream_t stream,
                       std::size_t copies, const std::function<void(std::size_t)>& enqueue,
                       const std::function<bool()>& result_ok,
                       const std::function<void()>& before_check = {});

// The search with the default's result (read by result() after
// enqueue(0)) as the reference: a candidate passes when same(its result,
// the reference); the sorts and the transpose ask for equal results.
template <class Enqueue, class Result, class Same = std::equal_to<>>
tune_result search_against_default(const tuning_job& job, double bytes_moved, cudaStream_t stream,
                                   std::size_t copies, Enqueue enqueue, Result result,
                                   Same same = {}, const std::function<void()>& before_check = {}) {
  const auto reference = [&] {
    const forced_config forced(job.s.id, job.s.default_config);
    enqueue(0);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return result();
  }();
  auto result_ok = [&] { return same(result(), reference); };
  return run_search(job, bytes_moved, stream, copies, enqueue, result_ok, before_check);
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

// f.template operator()<T>(job.n) for the T among Types whose element type
// is job.type (the last of them when none is: gp::tune checks the type
// first).
template <class First, class... Rest, class F>
tune_result for_element_type(const tuning_job& job, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return f.template operator()<First>(job.n);
  } else {
    if (job.type == element_type_of<First>()) return f.template operator()<First>(job.n);
    return for_element_type<Rest...>(job, f);
  }
}

// The families' measuring functions (src/<family>/tune_<family>.cpp), each
// over the element types of its space; gp::tune has checked n against the
// family's size rule (tuner_cuda.cpp) and set the matrix shape.
using family_tuner = tune_result (*)(const tuning_job&);
tune_result tune_reduce(const tuning_job& job);
tune_result tune_histogram(const tuning_job& job);
tune_result tune_segmented_reduce(const tuning_job& job);
tune_result tune_scan(const tuning_job& job);
tune_result tune_radix_sort(const tuning_job& job);
tune_result tune_sorting_network(const tuning_job& job);
tune_result tune_transpose(const tuning_job& job);
tune_result tune_convolve(const tuning_job& job);
tune_result tune_spmv(const tuning_job& job);
tune_result tune_closest_pair(const tuning_job& job);

}  // namespace gpuprim::tuning::cuda_tuning
