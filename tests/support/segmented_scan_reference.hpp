// Sequential references and segment layouts for segmented scans.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace gpuprim::test {

// Head flags from segment lengths (a zero length adds no head).
inline std::vector<std::uint8_t> flags_from_lengths(const std::vector<std::size_t>& lengths,
                                                    std::size_t n) {
  std::vector<std::uint8_t> flags(n, 0);
  std::size_t at = 0;
  for (std::size_t len : lengths) {
    if (len > 0 && at < n) flags[at] = 1;
    at += len;
  }
  return flags;
}

inline std::vector<std::uint64_t> offsets_from_lengths(const std::vector<std::size_t>& lengths) {
  std::vector<std::uint64_t> offsets{0};
  for (std::size_t len : lengths)
    offsets.push_back(offsets.back() + len);
  return offsets;
}

// Random lengths (some empty) adding up to n.
inline std::vector<std::size_t> random_lengths(std::size_t n, std::size_t max_len,
                                               std::mt19937_64& rng) {
  std::vector<std::size_t> lengths;
  std::uniform_int_distribution<std::size_t> d(0, max_len);
  std::size_t left = n;
  while (left > 0) {
    const std::size_t len = std::min(left, d(rng));
    lengths.push_back(len);
    left -= len;
  }
  return lengths;
}

template <class Acc, class T, class Op>
std::vector<Acc> reference_segmented_scan(std::span<const T> x, std::span<const std::uint8_t> flags,
                                          bool exclusive, Acc init, Op op) {
  std::vector<Acc> out(x.size());
  Acc acc{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool head = i == 0 || flags[i] != 0;
    if (exclusive) {
      if (head) acc = init;
      out[i] = acc;
      acc = static_cast<Acc>(op(acc, static_cast<Acc>(x[i])));
    } else {
      acc = head ? static_cast<Acc>(x[i]) : static_cast<Acc>(op(acc, static_cast<Acc>(x[i])));
      out[i] = acc;
    }
  }
  return out;
}

}  // namespace gpuprim::test
