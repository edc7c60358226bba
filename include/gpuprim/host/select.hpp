// CPU backend of the selection family: one engine for every selection
// (gpuprim/detail/select/selections.hpp says what a selection is).
//
//  1. The input is cut into one contiguous chunk per OpenMP thread; each
//     thread counts its chunk's elements of each counted class.
//  2. An exclusive sum over the chunks, in chunk order, gives each chunk the
//     output position of its first element of each class (and of the rest).
//  3. Each thread classifies its chunk again and writes every element to its
//     place. A reduction's thread also folds, for each head in its chunk,
//     the values up to the next head (which may lie in a later chunk), so
//     every run is folded left to right by one thread: the same bits on
//     every run and thread count.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/select/selections.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim::host_impl {

// The counted classes' totals (the rest's is n minus their sum).
using select_totals = std::array<std::uint64_t, 2>;

template <class S>
select_totals select(host_backend backend, const S& s, std::size_t n) {
  using T = typename S::staged;
  constexpr int counted = S::counted;
  const int threads = thread_count_for(backend, n);
  struct chunk_counts {
    alignas(64) std::uint64_t c[2] = {0, 0};
  };
  std::vector<chunk_counts> counts(static_cast<std::size_t>(threads) + 1);
  const auto chunk_begin = [&](int t) {
    return n / threads * t + std::min<std::size_t>(t, n % threads);
  };
  const auto class_at = [&](std::size_t i) {
    const T* previous = nullptr;
    if constexpr (S::needs_previous) previous = i > 0 ? &s.input[i - 1] : nullptr;
    return s.classify(s.input[i], previous, i);
  };

#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    const std::size_t begin = chunk_begin(t), end = chunk_begin(t + 1);
    std::uint64_t mine[2] = {0, 0};
    for (std::size_t i = begin; i < end; ++i) {
      const int cls = class_at(i);
      if (cls >= 0 && cls < counted) ++mine[cls];
    }
    counts[t + 1].c[0] = mine[0];
    counts[t + 1].c[1] = mine[1];
#pragma omp barrier
#pragma omp single
    {
      for (int u = 1; u <= threads; ++u) {
        counts[u].c[0] += counts[u - 1].c[0];
        counts[u].c[1] += counts[u - 1].c[1];
      }
    }
    if (s.emits) {
      const std::uint64_t selected_total = counts[threads].c[0];
      std::uint64_t next[2] = {counts[t].c[0], counts[t].c[1]};
      std::uint64_t rest_rank = begin - next[0] - next[1];
      for (std::size_t i = begin; i < end; ++i) {
        const int cls = class_at(i);
        if (cls < 0) continue;
        if (cls < counted) {
          const std::uint64_t d = next[cls]++;
          s.write(cls, d, s.input[i], i);
          if constexpr (S::reduces) {
            // Fold this head's run, up to the next head or the end.
            auto acc = s.values.at(i);
            for (std::size_t j = i + 1; j < n && class_at(j) < 0; ++j)
              acc = s.op(acc, s.values.at(j));
            s.write_value(d, acc);
          }
        } else {
          const std::uint64_t r = rest_rank++;
          const detail::rest_layout layout = detail::rest_of(s);
          const std::uint64_t dest = layout == detail::rest_layout::after_selected
                                         ? selected_total + r
                                     : layout == detail::rest_layout::reversed ? n - 1 - r
                                                                               : r;
          s.write(cls, dest, s.input[i], i);
        }
      }
    }
  }
  return {counts[threads].c[0], counts[threads].c[1]};
}

}  // namespace gpuprim::host_impl
