// Vendor anchors: the library a CUDA programmer would otherwise call,
// measured in the same run on the same inputs. Declared in plain C++; the
// CUB code lives in anchors_cub_<family>.cu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "enum_name.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/scan.hpp"

namespace gpuprim::bench {

enum class reduce_op { sum, min, max };

inline const char* name_of(reduce_op op) {
  return enum_name(op, {"sum", "min", "max"});
}

#if GPUPRIM_HAS_CUDA
// CUB's temporary storage for one anchor: sized by CUB's size query when
// the anchor is made and allocated once, outside any timed region, the way
// a CUB user keeps it across calls (anchors_cub.cuh makes and uses it).
// Freed with the anchor; moved, never copied.
class cub_storage {
 public:
  cub_storage() = default;
  explicit cub_storage(std::size_t bytes);  // at least one byte
  ~cub_storage();
  cub_storage(cub_storage&& other) noexcept;
  cub_storage& operator=(cub_storage&& other) noexcept;
  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// What every CUB anchor keeps: the stream it enqueues on and the temporary
// storage its CUB call asked for when the anchor was made.
class cub_anchor {
 protected:
  cub_anchor(stream_t stream, cub_storage temp) : stream_(stream), temp_(std::move(temp)) {}
  stream_t stream_;
  cub_storage temp_;
};

// One CUB algorithm from in[0, n) to out, picked by `Kind`:
// - reduce_op: cub::DeviceReduce::{Sum, Min, Max} into out[0]
//   (anchors_cub_reduce.cu);
// - scan_kind: cub::DeviceScan::{InclusiveSum, ExclusiveSum} into
//   out[0, n) (anchors_cub_scan.cu).
// The temporary storage is sized and allocated once, here, outside any
// timed region, the way a CUB user keeps it across calls.
template <class T, class Kind>
class cub_span_anchor : cub_anchor {
 public:
  cub_span_anchor(Kind kind, std::size_t n, stream_t stream);

  // Enqueues the algorithm on in[0, n) into out (device memory).
  void enqueue(const T* in, T* out) const;

  // "cub::DeviceReduce::Sum", "cub::DeviceScan::ExclusiveSum", ...
  static const char* name(Kind kind);

 private:
  Kind kind_;
  std::size_t n_;
};

template <class T>
using cub_reduce = cub_span_anchor<T, reduce_op>;
template <class T>
using cub_scan = cub_span_anchor<T, scan_kind>;

extern template class cub_span_anchor<float, reduce_op>;
extern template class cub_span_anchor<double, reduce_op>;
extern template class cub_span_anchor<std::int32_t, reduce_op>;
extern template class cub_span_anchor<float, scan_kind>;
extern template class cub_span_anchor<double, scan_kind>;
extern template class cub_span_anchor<std::int32_t, scan_kind>;

// cub::DeviceScan::InclusiveSumByKey over `n` elements with int32 keys:
// the sum restarts wherever the key differs from the one before it (give
// each segment its index as key, and the segments are those of head flags).
// Temporary storage allocated once, here.
template <class T>
class cub_inclusive_sum_by_key : cub_anchor {
 public:
  cub_inclusive_sum_by_key(std::size_t n, stream_t stream);

  // Enqueues the scan of in[0, n) by keys[0, n) into out[0, n) (device memory).
  void enqueue(const std::int32_t* keys, const T* in, T* out) const;

  static const char* name() { return "cub::DeviceScan::InclusiveSumByKey"; }

 private:
  std::size_t n_;
};

extern template class cub_inclusive_sum_by_key<float>;

// cub::DeviceSegmentedReduce::Sum over `num_segments` segments given by
// num_segments + 1 offsets (begin = offsets, end = offsets + 1), reading the
// same 64-bit offsets gpuprim reads. Temporary storage as for cub_reduce.
template <class T>
class cub_segmented_sum : cub_anchor {
 public:
  cub_segmented_sum(std::size_t num_segments, stream_t stream);

  void enqueue(const T* in, const std::uint64_t* offsets, T* out) const;

  static const char* name() { return "cub::DeviceSegmentedReduce::Sum"; }

 private:
  std::size_t num_segments_;
};

extern template class cub_segmented_sum<float>;

// cub::DeviceHistogram::HistogramEven: `bins` even bins over [lower, upper)
// of `n` samples, unsigned int counters (anchors_cub_histogram.cu).
// Temporary storage allocated once, here.
template <class Sample, class Level>
class cub_histogram_even : cub_anchor {
 public:
  cub_histogram_even(int bins, Level lower, Level upper, std::size_t n, stream_t stream);

  // Enqueues the histogram of in[0, n) into counts[0, bins) (device memory).
  void enqueue(const Sample* in, unsigned* counts) const;

  static const char* name() { return "cub::DeviceHistogram::HistogramEven"; }

 private:
  int bins_;
  Level lower_;
  Level upper_;
  std::size_t n_;
};

extern template class cub_histogram_even<std::uint8_t, int>;
extern template class cub_histogram_even<float, float>;

// cub::DeviceRadixSort::SortKeys (V = void) or SortPairs over `n` keys,
// bits [begin_bit, end_bit) (end_bit -1: all bits), out of place
// (anchors_cub_sort.cu); temporary storage allocated once.
template <class K, class V>
class cub_radix_sort : cub_anchor {
 public:
  using value_type = std::conditional_t<std::is_void_v<V>, char, V>;
  cub_radix_sort(std::size_t n, stream_t stream, int begin_bit = 0, int end_bit = -1);

  void enqueue(const K* keys_in, K* keys_out, const value_type* values_in = nullptr,
               value_type* values_out = nullptr) const;

  static const char* name() {
    return std::is_void_v<V> ? "cub::DeviceRadixSort::SortKeys" : "cub::DeviceRadixSort::SortPairs";
  }

 private:
  std::size_t n_;
  int begin_bit_, end_bit_;
};

extern template class cub_radix_sort<std::uint32_t, void>;
extern template class cub_radix_sort<std::uint64_t, void>;
extern template class cub_radix_sort<float, void>;
extern template class cub_radix_sort<std::uint32_t, std::uint32_t>;
#endif

#if GPUPRIM_HAS_CUDA
// cub::DeviceSegmentedSort::SortKeys over `num_segments` segments of `n`
// keys given by num_segments + 1 int offsets, out of place
// (anchors_cub_sorting_network.cu); temporary storage allocated once, here.
template <class T>
class cub_segmented_sort : cub_anchor {
 public:
  cub_segmented_sort(std::size_t n, std::size_t num_segments, stream_t stream);

  void enqueue(const T* keys_in, T* keys_out, const int* offsets) const;

  static const char* name() { return "cub::DeviceSegmentedSort::SortKeys"; }

 private:
  std::size_t n_;
  std::size_t num_segments_;
};

extern template class cub_segmented_sort<float>;
#endif

}  // namespace gpuprim::bench
