// The selection family's CUB anchors (anchors_cub_select.cu): the CUB call
// each gpuprim selection is measured against, on the bench's inputs: floats
// selected when above 1 (half of them: the bench's floats lie in
// [0.5, 1.5)), byte flags, int32 keys with float values.
#pragma once

#include <cstddef>
#include <cstdint>

#include "anchors.hpp"

namespace gpuprim::bench {

enum class cub_select_kind {
  flagged,        // cub::DeviceSelect::Flagged(in, flags, out)
  if_above_one,   // cub::DeviceSelect::If(in, out, x > 1)
  partition,      // cub::DevicePartition::If(in, out, x > 1)
  unique,         // cub::DeviceSelect::Unique(keys, keys_out)
  run_length,     // cub::DeviceRunLengthEncode::Encode(keys, keys_out, counts_out)
  reduce_by_key,  // cub::DeviceReduce::ReduceByKey(keys, keys_out, values, sums, plus)
};

#if GPUPRIM_HAS_CUDA
// Temporary storage allocated once, here. enqueue's arguments, by kind:
// `in` the floats or the int32 keys; `aux` the flags or the float values;
// `out` the floats or keys written; `out2` the int32 counts or float sums;
// `count` one int (device memory) receiving the number selected.
class cub_select : cub_anchor {
 public:
  cub_select(cub_select_kind kind, std::size_t n, stream_t stream);
  void enqueue(const void* in, const void* aux, void* out, void* out2, int* count) const;
  static const char* name(cub_select_kind kind);

 private:
  cub_select_kind kind_;
  std::size_t n_;
};
#endif

}  // namespace gpuprim::bench
