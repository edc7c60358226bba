// The shared-atomics histogram of bytes by its two byte entries, launched
// directly: through a byte -> bin table in shared memory
// (byte_binning::table, the variant lab/probes/probe_histogram.cu times, so
// that a variant the tuning probe may pick is tested like the default), and
// by the byte itself with a fold into the bins at each block's end
// (byte_binning::fold, production's). The counts and the left-out count
// equal the sequential reference, at sizes around the rounds of a grid and
// from unaligned starts.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/device/device_histogram.cuh"
#include "support/cuda_fixture.hpp"
#include "support/histogram_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;
using namespace gpuprim::test;

namespace {

// Sizes with no whole vector, a few rounds, and many rounds per thread of a
// full grid, with the scalar head and tail.
std::vector<std::size_t> variant_sizes() {
  return test_sizes({1, 15, 4097, 1000003, 20000017});
}

// Counts of samples[offset, offset + n) into `bins` bins by
// launch_shared_atomics with the given entries, against the reference.
template <gc::byte_binning Entries, int Threads, int MaxCopies, class T, class Binner>
void expect_counts(const std::vector<T>& x, std::size_t offset, int bins, Binner binner,
                   const reference_histogram<std::uint32_t>& want, const std::string& what) {
  const gp::device_vector<T> d = gp::to_device(x);
  gp::device_vector<std::uint32_t> counts(bins);
  gp::device_vector<std::uint64_t> left(1);
  counts.fill_bytes(0xA5);
  gc::histogram_zero<<<1, 256>>>(counts.data(), bins, left.data());
  gc::launch_shared_atomics<Entries, Threads, gc::histogram_unroll, MaxCopies>(
      d.data() + offset, x.size() - offset, counts.data(), bins, binner, left.data(), nullptr);
  ASSERT_EQ(gp::to_host(counts), want.counts) << what;
  ASSERT_EQ(gp::to_host(left)[0], want.left_out) << what;
}

}  // namespace

TEST_F(cuda_test, histogram_byte_table_and_fold_count_bytes_like_the_reference) {
  auto rng = make_rng(93);
  for (std::size_t n : variant_sizes()) {
    const auto x = random_samples<std::uint8_t>(n, rng);
    for (std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
      if (offset >= n) continue;
      const std::span<const std::uint8_t> part(x.data() + offset, n - offset);
      // 64 even bins over [0, 256), and 50 over [10, 210) (some bytes left
      // out).
      for (auto [lower, upper, bins] : {std::tuple{0, 256, 64}, std::tuple{10, 210, 50}}) {
        const gp::detail::even_binner<std::uint8_t> binner(lower, upper, bins);
        const auto want = reference_histogram_even<std::uint32_t>(part, bins, lower, upper);
        const std::string what = "n=" + std::to_string(n) + " offset=" + std::to_string(offset) +
                                 " bins=" + std::to_string(bins);
        expect_counts<gc::byte_binning::table, 256, 8>(x, offset, bins, binner, want,
                                                       what + ", byte table");
        if (::testing::Test::HasFatalFailure()) return;
        // The fold with one sub-histogram per warp (256 threads, 8 copies
        // summed before the fold) and with production's block shape.
        expect_counts<gc::byte_binning::fold, 256, 8>(x, offset, bins, binner, want,
                                                      what + ", fold of 8 copies");
        if (::testing::Test::HasFatalFailure()) return;
        expect_counts<gc::byte_binning::fold, gc::byte_histogram_threads,
                      gc::byte_histogram_copies>(x, offset, bins, binner, want,
                                                 what + ", fold of one copy");
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}
