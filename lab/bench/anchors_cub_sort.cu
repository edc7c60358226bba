// The CUB anchor for the radix sort: cub::DeviceRadixSort::SortKeys and
// SortPairs, out of place (the input is left as it was, like gpuprim's
// out-of-place sort), over all bits or a given bit range, temporary storage
// sized and allocated once.
#include <cuda_runtime_api.h>

#include <climits>
#include <cub/device/device_radix_sort.cuh>

#include "anchors_cub.cuh"

namespace gpuprim::bench {
namespace {

template <class K, class V>
cudaError_t call_cub(void* temp, std::size_t& temp_bytes, const K* keys_in, K* keys_out,
                     const V* values_in, V* values_out, std::size_t n, int begin_bit, int end_bit,
                     cudaStream_t stream) {
  if (end_bit < 0) end_bit = int(8 * sizeof(K));
  if constexpr (std::is_void_v<V>) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys_in, keys_out, n, begin_bit,
                                          end_bit, stream);
  } else {
    return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys_in, keys_out, values_in,
                                           values_out, n, begin_bit, end_bit, stream);
  }
}

}  // namespace

template <class K, class V>
cub_radix_sort<K, V>::cub_radix_sort(std::size_t n, stream_t stream, int begin_bit, int end_bit)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_cub<K, V>(temp, bytes, nullptr, nullptr, nullptr, nullptr, n,
                                         begin_bit, end_bit, stream);
                 })),
      n_(n),
      begin_bit_(begin_bit),
      end_bit_(end_bit) {}

template <class K, class V>
void cub_radix_sort<K, V>::enqueue(const K* keys_in, K* keys_out, const value_type* values_in,
                                   value_type* values_out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    if constexpr (std::is_void_v<V>) {
      return call_cub<K, V>(temp, bytes, keys_in, keys_out, nullptr, nullptr, n_, begin_bit_,
                            end_bit_, stream_);
    } else {
      return call_cub<K, V>(temp, bytes, keys_in, keys_out, values_in, values_out, n_, begin_bit_,
                            end_bit_, stream_);
    }
  });
}

template class cub_radix_sort<std::uint32_t, void>;
template class cub_radix_sort<std::uint64_t, void>;
template class cub_radix_sort<float, void>;
template class cub_radix_sort<std::uint32_t, std::uint32_t>;

}  // namespace gpuprim::bench
