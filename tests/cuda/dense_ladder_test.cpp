// The dense family's ladders: every transpose rung (the copy rung copies)
// and every matrix multiply rung, called from plain C++ through the tables,
// on odd shapes (not only multiples of the tiles), against references
// (bit-exact for transposes, double precision for products).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/ladder/dense.hpp"
#include "support/cuda_fixture.hpp"
#include "support/dense_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, transpose_ladder_every_rung_every_shape) {
  auto rng = make_rng(421);
  for (const auto [rows, cols] : transpose_shapes()) {
    const auto in = distinct_elements<float>(rows * cols, rng);
    const auto d_in = gp::to_device(in);
    for (const auto& rung : gp::ladder::transpose_rungs()) {
      gp::device_vector<float> d_out(rows * cols);
      d_out.fill_bytes(0xA5);
      rung.run(gp::device_matrix_view<const float>(d_in.data(), rows, cols),
               gp::device_matrix_view<float>(d_out.data(), cols, rows), nullptr);
      const auto out = gp::to_host(d_out);
      if (rung.is_copy) {
        for (std::size_t i = 0; i < in.size(); ++i)
          ASSERT_TRUE(same_bits(in[i], out[i])) << rung.name;
      } else {
        ASSERT_TRUE(is_transpose(in, rows, cols, cols, out, rows))
            << rung.name << " " << rows << " x " << cols;
      }
    }
  }
}

namespace {

template <class In>
void check_rungs(std::span<const gp::ladder::gemm_rung<In>> rungs, std::size_t salt) {
  auto rng = make_rng(salt);
  std::vector<gemm_case> cases = gemm_cases();
  cases.push_back({256, 256, 256});  // whole tiles only
  cases.push_back({300, 260, 100});  // k not a multiple of the tile depth
  for (const gemm_case& g : cases) {
    const auto a = random_matrix<In>(g.m * g.k, rng);
    const auto b = random_matrix<In>(g.k * g.n, rng);
    const std::vector<float> none;
    const auto expected = reference_gemm(a, g.k, gp::matrix_op::none, b, g.n, gp::matrix_op::none,
                                         none, 0, g.m, g.n, g.k, 1.0, 0.0);
    const auto d_a = gp::to_device(a);
    const auto d_b = gp::to_device(b);
    for (const auto& rung : rungs) {
      gp::device_vector<float> d_c(g.m * g.n);
      d_c.fill_bytes(0xFF);  // NaN: an unwritten element fails
      rung.run(gp::device_matrix_view<const In>(d_a.data(), g.m, g.k),
               gp::device_matrix_view<const In>(d_b.data(), g.k, g.n),
               gp::device_matrix_view<float>(d_c.data(), g.m, g.n), nullptr);
      ASSERT_TRUE(gemm_close(gp::to_host(d_c), g.n, expected, g.m, g.n, g.k, double(g.k)))
          << rung.name;
    }
  }
}

}  // namespace

TEST_F(cuda_test, gemm_ladder_every_rung_against_double_reference) {
  check_rungs<float>(gp::ladder::gemm_rungs(), 422);
}

TEST_F(cuda_test, gemm_tensor_core_ladder_against_double_reference) {
  check_rungs<gp::bfloat16>(gp::ladder::gemm_tensor_core_rungs(), 423);
}
