// The parts of the sample sort that need no communication library, shared
// by gp::mpi (dist/sort.hpp) and gp::multi_gpu (dist/multi_gpu.hpp): the
// report, the compared key bits, the regular sample, the splitters and the
// cut of a sorted slice at them. dist/sort.hpp says how the sort works.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpuprim/sort.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim {

// What a distributed sort did on this rank.
struct sort_report {
  std::uint64_t offset = 0;   // global position of this rank's first output element
  std::uint64_t count = 0;    // this rank's output elements
  std::uint64_t total = 0;    // all ranks' elements
  std::uint64_t largest = 0;  // the most output elements any rank holds
  // largest / (total / ranks) - 1: 0.05 means the fullest rank holds 5 %
  // more than an even share (0 when total is 0).
  double imbalance = 0;
  double local_seconds = 0;     // local sort and merge
  double exchange_seconds = 0;  // sizes, samples and the all-to-all
  // The GPU sort's steps (0 where a step did not run): local sort,
  // splitters and cuts, the all-to-all of the pieces, the merge of the
  // received runs; and the most bytes any rank or device sent to others.
  double sort_seconds = 0, splitter_seconds = 0, alltoall_seconds = 0, merge_seconds = 0;
  std::uint64_t sent_bytes = 0;
};

namespace detail {

// A key's place in the sort: its compared bits, then its global position.
struct sort_rank_key {
  std::uint64_t bits;
  std::uint64_t position;
  friend GPUPRIM_HD bool operator<(const sort_rank_key& a, const sort_rank_key& b) {
    return a.bits != b.bits ? a.bits < b.bits : a.position < b.position;
  }
};

// The bits a radix sort of this plan compares, as an unsigned number.
template <class K>
struct compared_bits {
  bool descending;
  int begin, end;
  GPUPRIM_HD std::uint64_t operator()(K key) const {
    std::uint64_t b = radix_key<K>::to_bits(key, descending);
    b >>= begin;
    const int width = end - begin;
    if (width < 64) b &= (std::uint64_t{1} << width) - 1;
    return b;
  }
};

inline std::uint64_t sample_step(std::uint64_t total, int ranks) {
  const std::uint64_t target = 32ull * ranks * ranks;  // samples in all
  return std::max<std::uint64_t>(1, (total + target - 1) / target);
}

// Step 2's choice: the splitters (ranks - 1 of them, fewer when there are
// fewer samples than ranks) from every rank's samples.
inline std::vector<sort_rank_key> splitters_of(std::vector<sort_rank_key> samples, int ranks) {
  std::sort(samples.begin(), samples.end());
  std::vector<sort_rank_key> splitters;
  for (int r = 1; r < ranks; ++r) {
    const std::size_t at = samples.size() * r / ranks;
    if (at >= samples.size()) break;
    splitters.push_back(samples[at]);
  }
  return splitters;
}

// This slice's samples: every step-th key from position 0, tagged with
// their global positions.
template <class K>
std::vector<sort_rank_key> tagged_samples(const std::vector<K>& keys, std::uint64_t step,
                                          std::uint64_t offset, const compared_bits<K>& bits_of) {
  std::vector<sort_rank_key> tagged(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    tagged[i] = {bits_of(keys[i]), offset + i * step};
  return tagged;
}

// Step 3: the first local position of each destination's piece (ranks + 1
// entries) in a sorted slice of n keys at global `offset`; key_at(j) reads
// the j-th key.
template <class K, class KeyAt>
std::vector<std::uint64_t> cut_at(const std::vector<sort_rank_key>& splitters, int ranks,
                                  std::uint64_t n, std::uint64_t offset,
                                  const compared_bits<K>& bits_of, KeyAt key_at) {
  std::vector<std::uint64_t> bounds(ranks + 1, n);
  bounds[0] = 0;
  for (std::size_t r = 1; r <= splitters.size(); ++r) {
    // First j with (bits(key[j]), offset + j) >= the splitter.
    std::uint64_t lo = bounds[r - 1], hi = n;
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (sort_rank_key{bits_of(key_at(mid)), offset + mid} < splitters[r - 1]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    bounds[r] = lo;
  }
  return bounds;
}

inline std::vector<std::uint64_t> run_bounds(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> b(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r)
    b[r + 1] = b[r] + counts[r];
  return b;
}

template <class K>
compared_bits<K> compared_bits_of(std::uint64_t n, sort_order order, key_bits bits, int value_bytes,
                                  const char* algorithm) {
  const radix_sort_plan plan = make_radix_sort_plan<K>(n, order, bits, value_bytes, algorithm);
  return {order == sort_order::descending, plan.begin_bit, plan.end_bit};
}

}  // namespace detail
}  // namespace gpuprim
