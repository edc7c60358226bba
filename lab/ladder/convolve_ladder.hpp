// The convolution ladder's table (see lab/ladder/ladder.hpp for what a
// ladder is). Its problem: a float image correlated with a square filter
// that is the outer product of a 1-D filter with itself (so that the
// separable rungs compute the same thing), border replicate.
#pragma once

#include <span>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {

// Enqueues out(y, x) = sum_{i, j} taps[i] taps[j] in(y + i - k/2, x + j - k/2)
// (k = taps.size(), 1 to 63, pixels past the edges replicated) on
// `stream`. in and out have the same shape and do not overlap (else
// std::invalid_argument). The taps are copied before the call returns.
// Rungs that keep the filter in one __constant__ symbol must not run on
// two streams at once.
using convolve_rung = rung<void(device_matrix_view<const float> in, device_matrix_view<float> out,
                                std::span<const float> taps, stream_t stream)>;

GPUPRIM_LADDER_TABLE(convolve_rung, convolve_rungs);

}  // namespace gpuprim::ladder
