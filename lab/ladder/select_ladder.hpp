// The selection family's ladder (lab/ladder/ladder.hpp says what a ladder
// is): stream compaction of the floats above a threshold, three ways.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {

// Copies the elements of `in` greater than `threshold` to out[0, k) and
// returns k (out.size() >= in.size(), else std::invalid_argument); runs on
// `stream` and waits for it (the count comes back to the host). Scratch
// comes from gp::get_scratch_resource(). A rung that does not keep input
// order says so in its `fixes` line.
using select_rung = rung<std::size_t(device_span<const float> in, device_span<float> out,
                                     float threshold, stream_t stream)>;

// Oldest first: a global atomic counter, flags + scan + scatter, the
// library's single pass.
GPUPRIM_LADDER_TABLE(select_rung, select_rungs);

}  // namespace gpuprim::ladder
