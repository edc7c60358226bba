// Segment layouts the segmented-family tests run over, and the sequential
// reference of segmented_reduce.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace gpuprim::test {

// Offsets into an array of `num_values` elements (the last offset may stop
// short of the end, and the first may start after 0).
struct segment_layout {
  std::string name;
  std::vector<std::uint64_t> offsets;
  std::size_t num_values = 0;
};

inline segment_layout layout_from_lengths(std::string name,
                                          const std::vector<std::uint64_t>& lengths,
                                          std::uint64_t first = 0, std::uint64_t slack = 0) {
  segment_layout layout{std::move(name), {first}, 0};
  for (std::uint64_t n : lengths)
    layout.offsets.push_back(layout.offsets.back() + n);
  layout.num_values = layout.offsets.back() + slack;
  return layout;
}

// Every shape the kernels tell apart: no segments, single empty / one-element
// / huge segments, many tiny ones, exactly 8 and exactly 1024, mixed random
// lengths with empty ones, and a few long segments of unequal length next to
// short and empty ones (the several-blocks-per-segment path).
inline std::vector<segment_layout> segment_layouts(std::mt19937_64& rng) {
  std::vector<segment_layout> layouts;
  layouts.push_back(layout_from_lengths("no segments", {}, 0, 5));
  layouts.push_back(layout_from_lengths("one empty segment", {0}, 3, 2));
  layouts.push_back(layout_from_lengths("one segment of 1", {1}));
  layouts.push_back(layout_from_lengths("one segment of 2^20+7", {(1u << 20) + 7}));
  {
    std::uniform_int_distribution<std::uint64_t> tiny(0, 3);
    std::vector<std::uint64_t> lengths(100003);
    for (auto& n : lengths)
      n = tiny(rng);
    layouts.push_back(layout_from_lengths("100003 segments of 0-3", lengths, 1, 1));
  }
  {
    std::uniform_int_distribution<std::uint64_t> small(0, 40);
    std::vector<std::uint64_t> lengths(3000);
    for (auto& n : lengths)
      n = small(rng);
    layouts.push_back(layout_from_lengths("3000 segments of 0-40", lengths, 3, 0));
  }
  layouts.push_back(
      layout_from_lengths("32768 segments of 8", std::vector<std::uint64_t>(32768, 8)));
  layouts.push_back(
      layout_from_lengths("1000 segments of 1024", std::vector<std::uint64_t>(1000, 1024)));
  layouts.push_back(layout_from_lengths("777 segments of 33, unaligned start",
                                        std::vector<std::uint64_t>(777, 33), 3));
  {
    std::uniform_int_distribution<int> kind(0, 9);
    std::uniform_int_distribution<std::uint64_t> short_length(1, 40), medium_length(100, 3000),
        long_length(20000, 120000);
    std::vector<std::uint64_t> lengths(5000);
    for (auto& n : lengths) {
      const int k = kind(rng);
      n = k < 2 ? 0 : k < 6 ? short_length(rng) : k < 9 ? medium_length(rng) : long_length(rng) / 8;
    }
    layouts.push_back(layout_from_lengths("5000 mixed lengths with empties", lengths, 0, 17));
  }
  layouts.push_back(layout_from_lengths("long segments of unequal length",
                                        {0, 300001, 17, (1u << 20) + 3, 99999, 0, 2500000}, 5, 9));
  return layouts;
}

// out[s] = init op v[offsets[s]] op ... in order; Acc is the accumulation
// type (double for float sums, T otherwise).
template <class Acc, class T, class Op>
std::vector<Acc> reference_segmented_reduce(std::span<const T> values,
                                            std::span<const std::uint64_t> offsets, Acc init,
                                            Op op) {
  std::vector<Acc> out(offsets.empty() ? 0 : offsets.size() - 1);
  for (std::size_t s = 0; s < out.size(); ++s) {
    Acc acc = init;
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
      acc = op(acc, static_cast<Acc>(values[i]));
    out[s] = acc;
  }
  return out;
}

}  // namespace gpuprim::test
