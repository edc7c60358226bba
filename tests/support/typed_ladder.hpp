// The runs every ladder made for each element type (reduce, scan) goes
// through on the GPU: every rung on random data at every standard size, and
// on subspans that start off a 16-byte boundary. The ladder's own test says
// what a rung's output must be (`check`).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// The element types a typed ladder is made for.
using typed_ladder_types = ::testing::Types<float, double, std::int32_t, std::int64_t>;

// check(rung, x, d, what) for every rung and every n of standard_sizes(): x
// n random values (random_vector, seeded by `salt`), d their device copy.
template <class T, class Rungs, class Check>
void check_every_rung_at_every_size(const Rungs& rungs, std::size_t salt, Check check) {
  auto rng = make_rng(salt);
  for (std::size_t n : standard_sizes()) {
    const auto x = random_vector<T>(n, rng);
    const auto d = to_device(x);
    for (const auto& rung : rungs)
      check(rung, std::span<const T>(x), d.span(),
            std::string(rung.name) + " n=" + std::to_string(n));
  }
}

// The same on parts of one array of `size` random values: from each offset,
// a part of each of `short_lengths` and one that ends two elements before
// the array does.
template <class T, class Rungs, class Check>
void check_every_rung_on_subspans(const Rungs& rungs, std::size_t salt, std::size_t size,
                                  std::initializer_list<std::size_t> offsets,
                                  std::initializer_list<std::size_t> short_lengths, Check check) {
  auto rng = make_rng(salt);
  const auto x = random_vector<T>(size, rng);
  const auto d = to_device(x);
  for (std::size_t offset : offsets) {
    std::vector<std::size_t> lengths(short_lengths);
    lengths.push_back(size - offset - 2);
    for (std::size_t n : lengths) {
      for (const auto& rung : rungs) {
        check(rung, std::span<const T>(x).subspan(offset, n), d.span().subspan(offset, n),
              std::string(rung.name) + " offset=" + std::to_string(offset) +
                  " n=" + std::to_string(n));
      }
    }
  }
}

}  // namespace gpuprim::test
