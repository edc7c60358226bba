// The convolution ladder: every rung, called from plain C++ through the
// table, against the double-precision reference (border replicate, the
// filter the outer product of 1-D taps with themselves).
#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/convolve_ladder.hpp"
#include "support/convolve_reference.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, convolve_ladder_every_rung_matches_the_reference) {
  auto rng = make_rng(31);
  struct shape {
    std::size_t rows, cols, ld;
  };
  for (const shape s : {shape{1, 1, 1}, shape{5, 3, 3}, shape{37, 301, 301}, shape{129, 260, 264},
                        shape{300, 17, 20}}) {
    const auto in = random_pixels<float>(s.rows * s.ld, rng);
    std::vector<float> packed(s.rows * s.cols);
    for (std::size_t r = 0; r < s.rows; ++r) {
      for (std::size_t c = 0; c < s.cols; ++c)
        packed[r * s.cols + c] = in[r * s.ld + c];
    }
    const auto d_in = gp::to_device(in);
    for (std::size_t k : {1u, 3u, 4u, 9u, 17u, 63u}) {
      std::vector<double> w = random_weights(k, rng);
      const std::vector<float> taps(w.begin(), w.end());
      const std::vector<double> wd(taps.begin(), taps.end());
      const auto expected = reference_filter(
          packed, {1, s.rows, s.cols, 1}, gp::filter::outer(wd, wd), gp::border::replicate, false);
      for (const auto& rung : gp::ladder::convolve_rungs()) {
        gp::device_vector<float> d_out(s.rows * s.cols);
        d_out.fill_bytes(0x7F);
        rung.run(gp::device_matrix_view<const float>(d_in.data(), s.rows, s.cols, s.ld),
                 gp::device_matrix_view<float>(d_out.data(), s.rows, s.cols), taps, nullptr);
        const auto got = gp::to_host(d_out);
        ASSERT_TRUE(matches_reference(got, expected, abs_sum(wd) * abs_sum(wd), 2 * k * k,
                                      std::string(rung.name) + " k=" + std::to_string(k) + " " +
                                          std::to_string(s.rows) + "x" + std::to_string(s.cols)));
      }
    }
  }
}

TEST_F(cuda_test, convolve_ladder_rejects_bad_problems) {
  gp::device_vector<float> a(16), b(16);
  const std::vector<float> none;
  const std::vector<float> three(3, 1.0f);
  for (const auto& rung : gp::ladder::convolve_rungs()) {
    EXPECT_THROW(rung.run(gp::device_matrix_view<const float>(a.data(), 4, 4),
                          gp::device_matrix_view<float>(b.data(), 4, 4), none, nullptr),
                 std::invalid_argument)
        << rung.name;
    EXPECT_THROW(rung.run(gp::device_matrix_view<const float>(a.data(), 4, 4),
                          gp::device_matrix_view<float>(a.data(), 4, 4), three, nullptr),
                 std::invalid_argument)
        << rung.name;
  }
}

TEST(convolve_ladder_table, has_eight_named_rungs) {
#if GPUPRIM_HAS_CUDA
  gpuprim::test::expect_complete_ladder(gp::ladder::convolve_rungs(), 8, "convolve_naive_global",
                                        "convolve_separable_streaming");
#else
  GTEST_SKIP() << "built without CUDA: the ladder is empty";
#endif
}
