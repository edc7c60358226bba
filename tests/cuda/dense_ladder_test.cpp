// The dense family's ladders: every transpose rung (the copy rung copies)
// and every matrix multiply rung, called from plain C++ through the tables,
// on odd shapes (not only multiples of the tiles), against references
// (bit-exact for transposes, double precision for products).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/dense.hpp"
#include "lab/ladder/gemm_wgmma.hpp"
#include "support/cuda_fixture.hpp"
#include "support/dense_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, transpose_ladder_every_rung_every_shape) {
  auto rng = make_rng(421);
  // Beside the shared shapes, odd leading dimensions over several tiles each
  // way (rows then start at every offset within a 32-byte sector, and tiles
  // are cut at both edges), and the bench's 10007 x 3001; those above
  // test_size_cap() are left out (racecheck runs).
  std::vector<dense_shape> shapes = transpose_shapes();
  for (const dense_shape s : {dense_shape{1031, 301}, dense_shape{301, 1031}, dense_shape{135, 129},
                              dense_shape{58, 64}, dense_shape{10007, 3001}})
    if (s.rows * s.cols <= test_size_cap()) shapes.push_back(s);
  for (const auto [rows, cols] : shapes) {
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

// Views that start 1 and 3 floats into their allocations: the first and
// last 16-byte pieces of the matrices are then partly outside them.
TEST_F(cuda_test, transpose_ladder_every_rung_unaligned_views) {
  auto rng = make_rng(424);
  for (const dense_shape s : {dense_shape{31, 33}, dense_shape{135, 129}, dense_shape{1031, 301}}) {
    const std::size_t rows = s.rows, cols = s.cols, n = rows * cols;
    const auto in = distinct_elements<float>(n + 1, rng);
    const auto d_in = gp::to_device(in);
    const std::vector<float> in_view(in.begin() + 1, in.end());
    float fill;
    std::memset(&fill, 0xA5, sizeof fill);
    for (const auto& rung : gp::ladder::transpose_rungs()) {
      gp::device_vector<float> d_out(n + 3);
      d_out.fill_bytes(0xA5);
      rung.run(gp::device_matrix_view<const float>(d_in.data() + 1, rows, cols),
               gp::device_matrix_view<float>(d_out.data() + 3, cols, rows), nullptr);
      const auto all = gp::to_host(d_out);
      for (std::size_t i = 0; i < 3; ++i)
        ASSERT_TRUE(same_bits(all[i], fill)) << rung.name << ": wrote before out";
      const std::vector<float> out(all.begin() + 3, all.end());
      if (rung.is_copy) {
        for (std::size_t i = 0; i < n; ++i)
          ASSERT_TRUE(same_bits(in_view[i], out[i])) << rung.name;
      } else {
        ASSERT_TRUE(is_transpose(in_view, rows, cols, cols, out, rows))
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
  // k and n multiples of 8 (the cp.async path of gemm_bf16_mma_pipelined)
  // with partial tiles at every edge: m, n, k not multiples of 128, 256, 32.
  cases.push_back({200, 264, 136});
  cases.push_back({264, 520, 328});
  cases.push_back({130, 8, 8});
  // Whole pairs of tiles of the wgmma rungs (256 x 256 x 64): k over several
  // turns of their 4-stage ring; more tile rows than their group of 16.
  cases.push_back({512, 512, 640});
  cases.push_back({4352, 256, 64});
  for (const gemm_case& g : cases) {
    const auto a = random_matrix<In>(g.m * g.k, rng);
    const auto b = random_matrix<In>(g.k * g.n, rng);
    const std::vector<float> none;
    const auto expected = reference_gemm(a, g.k, gp::matrix_op::none, b, g.n, gp::matrix_op::none,
                                         none, 0, g.m, g.n, g.k, 1.0, 0.0);
    const auto d_a = gp::to_device(a);
    const auto d_b = gp::to_device(b);
    for (const auto& rung : rungs) {
      // The wgmma rungs take whole tiles only: every other shape is refused.
      const std::string name = rung.name;
      if ((name == gp::ladder::gemm_wgmma_rung_name ||
           name == gp::ladder::gemm_wgmma_cluster_rung_name) &&
          !gp::ladder::gemm_wgmma_takes(g.m, g.n, g.k)) {
        gp::device_vector<float> d_c(g.m * g.n);
        EXPECT_THROW(rung.run(gp::device_matrix_view<const In>(d_a.data(), g.m, g.k),
                              gp::device_matrix_view<const In>(d_b.data(), g.k, g.n),
                              gp::device_matrix_view<float>(d_c.data(), g.m, g.n), nullptr),
                     std::invalid_argument)
            << g.m << " x " << g.n << " x " << g.k;
        continue;
      }
      gp::device_vector<float> d_c(g.m * g.n);
      d_c.fill_bytes(0xFF);  // NaN: an unwritten element fails
      rung.run(gp::device_matrix_view<const In>(d_a.data(), g.m, g.k),
               gp::device_matrix_view<const In>(d_b.data(), g.k, g.n),
               gp::device_matrix_view<float>(d_c.data(), g.m, g.n), nullptr);
      ASSERT_TRUE(gemm_close(gp::to_host(d_c), g.n, expected, g.m, g.n, g.k, double(g.k)))
          << rung.name << " " << g.m << " x " << g.n << " x " << g.k;
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

TEST_F(cuda_test, gemm_tensor_core_ladder_has_the_wgmma_rungs_before_production) {
  const auto rungs = gp::ladder::gemm_tensor_core_rungs();
#if GPUPRIM_HAS_CUDA
  ASSERT_GE(rungs.size(), 3u);
  EXPECT_EQ(std::string(rungs[rungs.size() - 3].name), gp::ladder::gemm_wgmma_rung_name);
  EXPECT_EQ(std::string(rungs[rungs.size() - 2].name), gp::ladder::gemm_wgmma_cluster_rung_name);
#else
  EXPECT_TRUE(rungs.empty());
#endif
}

#if GPUPRIM_HAS_CUDA
// The pipelined rung's own entry: alpha and beta, leading dimensions larger
// than the width (aligned and not), C's NaN ignored when beta == 0.
TEST_F(cuda_test, gemm_bf16_mma_pipelined_alpha_beta_and_leading_dimensions) {
  auto rng = make_rng(424);
  struct layout {
    std::size_t m, n, k, lda, ldb, ldc;
  };
  const layout layouts[] = {
      {150, 264, 72, 72, 264, 264},    // cp.async path, packed
      {150, 264, 72, 80, 280, 275},    // cp.async path, padded rows, odd ldc
      {77, 45, 39, 41, 47, 46},        // element path
      {300, 520, 256, 264, 520, 521},  // several stages of k, odd ldc
      {70, 40, 0, 8, 40, 40},          // k = 0: C = beta C
  };
  for (const auto depth :
       {gp::ladder::gemm_mma_depth::k32_4_stages, gp::ladder::gemm_mma_depth::k64_3_stages})
    for (const layout& l : layouts) {
      for (const auto [alpha, beta] : {std::pair{1.0f, 0.0f}, {-0.5f, 0.0f}, {2.0f, -1.5f}}) {
        const auto a = random_matrix<gp::bfloat16>(l.m * l.lda, rng);
        const auto b = random_matrix<gp::bfloat16>(l.k * l.ldb, rng);
        auto c0 = random_matrix<float>(l.m * l.ldc, rng);
        if (beta == 0.0f) {
          for (auto& x : c0)
            x = std::numeric_limits<float>::quiet_NaN();
        }
        const auto expected =
            reference_gemm(a, l.lda, gp::matrix_op::none, b, l.ldb, gp::matrix_op::none, c0, l.ldc,
                           l.m, l.n, l.k, double(alpha), double(beta));
        const auto d_a = gp::to_device(a);
        const auto d_b = gp::to_device(b);
        auto d_c = gp::to_device(c0);
        gp::ladder::gemm_bf16_mma_pipelined(
            gp::device_matrix_view<const gp::bfloat16>(d_a.data(), l.m, l.k, l.lda),
            gp::device_matrix_view<const gp::bfloat16>(d_b.data(), l.k, l.n, l.ldb),
            gp::device_matrix_view<float>(d_c.data(), l.m, l.n, l.ldc), alpha, beta, nullptr,
            depth);
        const auto got = gp::to_host(d_c);
        ASSERT_TRUE(gemm_close(got, l.ldc, expected, l.m, l.n, l.k, 2.0 * double(l.k) + 2.0))
            << l.m << " x " << l.n << " x " << l.k << " alpha " << alpha << " beta " << beta
            << " depth " << static_cast<int>(depth);
        // Padding between rows of C is not touched.
        for (std::size_t i = 0; i < l.m; ++i)
          for (std::size_t j = l.n; j < l.ldc && i * l.ldc + j < got.size(); ++j)
            ASSERT_TRUE(same_bits(got[i * l.ldc + j], c0[i * l.ldc + j])) << i << ", " << j;
      }
    }
}

TEST_F(cuda_test, gemm_bf16_mma_pipelined_refuses_bad_arguments) {
  gp::device_vector<gp::bfloat16> ab(64 * 64);
  gp::device_vector<float> c(64 * 64);
  const gp::device_matrix_view<const gp::bfloat16> a(ab.data(), 8, 16), b(ab.data(), 16, 8);
  EXPECT_THROW(gp::ladder::gemm_bf16_mma_pipelined(
                   a, a, gp::device_matrix_view<float>(c.data(), 8, 8), 1.0f, 0.0f, nullptr),
               std::invalid_argument);  // B is 8 x 16, not 16 x n
  EXPECT_THROW(gp::ladder::gemm_bf16_mma_pipelined(
                   a, b, gp::device_matrix_view<float>(c.data(), 8, 9), 1.0f, 0.0f, nullptr),
               std::invalid_argument);  // C 8 x 9
  // C over A's bytes.
  auto* alias = reinterpret_cast<float*>(ab.data());
  EXPECT_THROW(gp::ladder::gemm_bf16_mma_pipelined(a, b, gp::device_matrix_view<float>(alias, 8, 8),
                                                   1.0f, 0.0f, nullptr),
               std::invalid_argument);
}

// The wgmma rungs' own checks, made before anything reaches the device.
TEST_F(cuda_test, gemm_bf16_wgmma_refuses_bad_arguments) {
  gp::device_vector<gp::bfloat16> ab(2 * 256 * 256 + 8);
  gp::device_vector<float> c(256 * 256);
  const gp::device_matrix_view<const gp::bfloat16> a(ab.data(), 256, 256), b(ab.data(), 256, 256);
  const gp::device_matrix_view<float> out(c.data(), 256, 256);
  const auto refused = [&](gp::device_matrix_view<const gp::bfloat16> x,
                           gp::device_matrix_view<const gp::bfloat16> y,
                           gp::device_matrix_view<float> z, int cluster = 1) {
    try {
      gp::ladder::gemm_bf16_wgmma(x, y, z, nullptr, cluster);
    } catch (const std::invalid_argument&) {
      return true;
    }
    return false;
  };
  using bf16_view = gp::device_matrix_view<const gp::bfloat16>;
  using float_view = gp::device_matrix_view<float>;
  // One thing wrong each: n = 128 (half a tile), m = 128 (one tile, not the
  // pair), k = 96 (1.5 steps), B's rows not A's columns, A not on 16 bytes,
  // C over B's bytes, a cluster of 3.
  EXPECT_TRUE(refused(bf16_view(ab.data(), 256, 192), bf16_view(ab.data(), 192, 128),
                      float_view(c.data(), 256, 128)));
  EXPECT_TRUE(refused(bf16_view(ab.data(), 128, 256), b, float_view(c.data(), 128, 256)));
  EXPECT_TRUE(refused(bf16_view(ab.data(), 256, 96), bf16_view(ab.data(), 96, 256), out));
  EXPECT_TRUE(refused(a, bf16_view(ab.data(), 128, 256), out));
  EXPECT_TRUE(refused(bf16_view(ab.data() + 1, 256, 256), b, out));
  EXPECT_TRUE(refused(a, b, float_view(reinterpret_cast<float*>(ab.data()), 256, 256)));
  EXPECT_TRUE(refused(a, b, out, 3));
  EXPECT_FALSE(gp::ladder::gemm_wgmma_takes(0, 256, 64));
  EXPECT_FALSE(gp::ladder::gemm_wgmma_takes(128, 256, 64));
  EXPECT_TRUE(gp::ladder::gemm_wgmma_takes(256, 256, 64));
}
#endif
