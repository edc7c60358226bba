// Vendor anchors: the library a CUDA programmer would otherwise call,
// measured in the same run on the same inputs. Declared in plain C++; the
// CUB code lives in anchors_cub_reduce.cu.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::bench {

enum class reduce_op { sum, min, max };

inline const char* name_of(reduce_op op) {
  switch (op) {
    case reduce_op::sum:
      return "sum";
    case reduce_op::min:
      return "min";
    case reduce_op::max:
      return "max";
  }
  return "?";
}

#if GPUPRIM_HAS_CUDA
// cub::DeviceReduce::{Sum, Min, Max} over inputs of `n` elements. The
// temporary storage is sized and allocated once, here, outside any timed
// region, the way a CUB user keeps it across calls.
template <class T>
class cub_reduce {
 public:
  cub_reduce(reduce_op op, std::size_t n, stream_t stream);
  ~cub_reduce();
  cub_reduce(const cub_reduce&) = delete;
  cub_reduce& operator=(const cub_reduce&) = delete;

  // Enqueues the reduction of in[0, n) into out[0] (device memory).
  void enqueue(const T* in, T* out) const;

  // "cub::DeviceReduce::Sum" etc.
  static const char* name(reduce_op op);

 private:
  reduce_op op_;
  std::size_t n_;
  stream_t stream_;
  void* temp_storage_ = nullptr;
  std::size_t temp_storage_bytes_ = 0;
};

extern template class cub_reduce<float>;
extern template class cub_reduce<double>;
extern template class cub_reduce<std::int32_t>;
#endif

}  // namespace gpuprim::bench
