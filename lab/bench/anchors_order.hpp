// The order family's CUB anchor (anchors_cub_order.cu): the merge sort of a
// 16-byte record by its float member, against cub::DeviceMergeSort::SortKeys
// with the same comparator. The record type and its comparator need nvcc,
// so gpuprim's side of that row and the row's check are compiled there too.
// (CUDA 13.0's CUB has no DeviceTopK: the top-k rows have no anchor.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "anchors.hpp"

namespace gpuprim::bench {

// The record the merge sort row sorts by score (ascending).
struct order_record {
  float score;
  std::int32_t id;
  std::int64_t pad;
};
static_assert(sizeof(order_record) == 16);

#if GPUPRIM_HAS_CUDA
// Enqueues records[i] = {score: one of 2^20 values (ties), id: i, pad: i}.
void fill_order_records(order_record* records, std::size_t n, stream_t stream);

// Enqueues gp::merge_sort(gp::cuda.on(stream), records, by score).
void gpuprim_sort_order_records(order_record* records, std::size_t n, stream_t stream);

// Waits for `stream`, then checks records on the device: sorted by score,
// ids ascending within a score when `stable`, and the ids a permutation's
// (their sum n (n - 1) / 2). "ok", or what was wrong.
std::string check_order_records(const order_record* records, std::size_t n, bool stable,
                                stream_t stream);

// cub::DeviceMergeSort::SortKeys(records, n, by score), in place; the
// temporary storage allocated once, here.
class cub_merge_sort_records : cub_anchor {
 public:
  cub_merge_sort_records(std::size_t n, stream_t stream);
  void enqueue(order_record* records) const;
  static const char* name() { return "cub::DeviceMergeSort::SortKeys"; }

 private:
  std::size_t n_;
};
#endif

}  // namespace gpuprim::bench
