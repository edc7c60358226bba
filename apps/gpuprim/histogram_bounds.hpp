// The bounds [lower, upper) of `gpuprim histogram`, shared by the one-process
// command (cmd_histogram.cpp) and its --distributed form (dist_cli.cpp).
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"

namespace gpuprim::cli {

// The bounds that need no look at the data: --range LO HI (integers for
// integer data T), or [0, 256) for bytes. False when neither applies.
template <class T, class L>
bool fixed_histogram_bounds(const std::vector<double>& range, bool byte_range, L& lower, L& upper) {
  if (!range.empty()) {
    const double lo = range[0], hi = range[1];
    if constexpr (std::is_integral_v<T>) {
      if (lo != std::floor(lo) || hi != std::floor(hi)) {
        throw usage_error("--range " + std::to_string(lo) + " " + std::to_string(hi) +
                          ": the data are integers, so the bounds must be integers");
      }
    }
    lower = static_cast<L>(lo);
    upper = static_cast<L>(hi);
    return true;
  }
  if (byte_range) {
    lower = 0;
    upper = 256;
    return true;
  }
  return false;
}

// The bounds that hold the finite data, from its min `lo` and max `hi`
// (`any`: there was a finite value; [0, 1) otherwise): the max is the last
// value below the upper bound.
template <class T, class L>
void data_histogram_bounds(bool any, T lo, T hi, L& lower, L& upper) {
  if (!any) {
    lower = 0;
    upper = 1;
  } else if constexpr (std::is_floating_point_v<T>) {
    lower = lo;
    upper = std::nextafter(hi, std::numeric_limits<T>::infinity());
  } else {
    lower = static_cast<L>(lo);
    upper = static_cast<L>(hi) + 1;
  }
}

}  // namespace gpuprim::cli
