// The top-k family's ladder (lab/ladder/ladder.hpp says what a ladder is):
// the k largest floats of one array with their indices, four ways.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {

// Enqueues on `stream` the k largest elements of `in` (NaN largest, ties to
// the smaller index), sorted, into values[0, k) and indices[0, k), as
// gp::topk does. k from 1 to in.size(), the outputs holding at least k,
// else std::invalid_argument; a rung with narrower limits says so in its
// `fixes` line and refuses the rest the same way. Scratch comes from
// gp::get_scratch_resource().
using topk_rung = rung<void(device_span<const float> in, std::size_t k, device_span<float> values,
                            device_span<std::int64_t> indices, stream_t stream)>;

// Oldest first: a full sort, per-block bitonic top-k, the radix select
// reading the array in every digit pass, the library's radix select (a
// sampled pre-filter, then passes over the few elements it kept).
GPUPRIM_LADDER_TABLE(topk_rung, topk_rungs);

}  // namespace gpuprim::ladder
