// Test and benchmark matrices (host, CSR): the 2-D Poisson matrix, random
// symmetric positive definite and diagonally dominant matrices, and R-MAT
// power-law graphs. Random ones are a function of their seed only (a
// counter-based hash per entry, the same for any thread count).
//
//   auto A = gp::poisson2d<double, int>(64);          // 4096 x 4096, 5-point
//   auto S = gp::random_spd<float, int>(1000, 8, 42);  // ~8 entries per row
//   auto G = gp::rmat<float, int>(20, 16, 7);          // 2^20 rows, ~16 per row
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/sparse.hpp"

namespace gpuprim {

namespace detail::sparse {

inline std::uint64_t mix64(std::uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// A uniform double in [0, 1) from (seed, stream, index).
inline double uniform01(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return static_cast<double>(mix64(mix64(seed ^ (stream << 56)) ^ index) >> 11) * 0x1.0p-53;
}

}  // namespace detail::sparse

// The 5-point Laplacian on an n x n grid (Dirichlet boundary): n^2 rows,
// 4 on the diagonal, -1 for each grid neighbour; symmetric positive definite.
template <class T, class I>
csr_matrix<T, I> poisson2d(std::size_t n) {
  const std::size_t rows = n * n;
  std::vector<I> offsets(rows + 1);
  // Row (i, j) has 1 + [i > 0] + [i < n-1] + [j > 0] + [j < n-1] entries.
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      offsets[i * n + j] = static_cast<I>(k);
      k += 1 + (i > 0) + (i + 1 < n) + (j > 0) + (j + 1 < n);
    }
  }
  offsets[rows] = static_cast<I>(k);
  std::vector<I> cols(k);
  std::vector<T> vals(k);
#pragma omp parallel for schedule(static)
  for (std::int64_t si = 0; si < static_cast<std::int64_t>(n); ++si) {
    const std::size_t i = static_cast<std::size_t>(si);
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t at = static_cast<std::size_t>(offsets[i * n + j]);
      auto put = [&](std::size_t c, T v) {
        cols[at] = static_cast<I>(c);
        vals[at] = v;
        ++at;
      };
      if (i > 0) put((i - 1) * n + j, T(-1));
      if (j > 0) put(i * n + j - 1, T(-1));
      put(i * n + j, T(4));
      if (j + 1 < n) put(i * n + j + 1, T(-1));
      if (i + 1 < n) put((i + 1) * n + j, T(-1));
    }
  }
  return csr_matrix<T, I>(rows, rows, std::move(offsets), std::move(cols), std::move(vals));
}

// A random sparse symmetric positive definite n x n matrix: about
// `per_row` off-diagonal entries per row with values in [-1, 1), mirrored,
// and a diagonal of 1 + the row's absolute sum (strictly diagonally
// dominant with a positive diagonal, hence SPD).
template <class T, class I>
csr_matrix<T, I> random_spd(std::size_t n, std::size_t per_row, std::uint64_t seed) {
  std::vector<I> r, c;
  std::vector<T> v;
  const std::size_t half = per_row / 2;
  r.reserve(n * (2 * half + 1));
  c.reserve(n * (2 * half + 1));
  v.reserve(n * (2 * half + 1));
  std::vector<double> diag(n, 1.0);
  for (std::size_t i = 0; i < n && n > 1; ++i) {
    for (std::size_t e = 0; e < half; ++e) {
      const std::uint64_t id = i * half + e;
      std::size_t j = static_cast<std::size_t>(detail::sparse::uniform01(seed, 1, id) * n);
      if (j == i) j = (j + 1) % n;
      const double x = 2.0 * detail::sparse::uniform01(seed, 2, id) - 1.0;
      const T tx = static_cast<T>(x);
      r.push_back(static_cast<I>(i));
      c.push_back(static_cast<I>(j));
      v.push_back(tx);
      r.push_back(static_cast<I>(j));
      c.push_back(static_cast<I>(i));
      v.push_back(tx);
      diag[i] += std::abs(static_cast<double>(tx));
      diag[j] += std::abs(static_cast<double>(tx));
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    r.push_back(static_cast<I>(i));
    c.push_back(static_cast<I>(i));
    v.push_back(static_cast<T>(diag[i]));
  }
  return coo_to_csr<T, I>(n, n, r, c, v);
}

// A random nonsymmetric n x n matrix, strictly diagonally dominant by rows
// (about `per_row` off-diagonal entries in [-1, 1); diagonal 1 + the row's
// absolute sum, its sign alternating by row): Jacobi and BiCGStab converge.
template <class T, class I>
csr_matrix<T, I> random_diagonally_dominant(std::size_t n, std::size_t per_row,
                                            std::uint64_t seed) {
  std::vector<I> r, c;
  std::vector<T> v;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 1.0;
    for (std::size_t e = 0; e < per_row && n > 1; ++e) {
      const std::uint64_t id = i * per_row + e;
      std::size_t j = static_cast<std::size_t>(detail::sparse::uniform01(seed, 3, id) * n);
      if (j == i) j = (j + 1) % n;
      const T x = static_cast<T>(2.0 * detail::sparse::uniform01(seed, 4, id) - 1.0);
      r.push_back(static_cast<I>(i));
      c.push_back(static_cast<I>(j));
      v.push_back(x);
      sum += std::abs(static_cast<double>(x));
    }
    r.push_back(static_cast<I>(i));
    c.push_back(static_cast<I>(i));
    v.push_back(static_cast<T>(i % 2 ? -sum : sum));
  }
  return coo_to_csr<T, I>(n, n, r, c, v);
}

// An R-MAT graph (Chakrabarti et al.): 2^scale vertices, edge_factor *
// 2^scale edges, each placed by descending `scale` levels of the adjacency
// matrix's quadrants with probabilities a, b, c and 1 - a - b - c (the
// Graph500 choice 0.57, 0.19, 0.19, 0.05 by default): a power-law
// distribution of row lengths. Values in (0, 1]; repeated edges are summed,
// so there are somewhat fewer than edge_factor entries per row.
template <class T, class I>
csr_matrix<T, I> rmat(int scale, std::size_t edge_factor, std::uint64_t seed, double a = 0.57,
                      double b = 0.19, double c = 0.19) {
  if (scale < 0 || scale > 40) {
    throw std::invalid_argument("gpuprim::rmat: scale " + std::to_string(scale) +
                                " is outside [0, 40]");
  }
  const std::size_t n = std::size_t{1} << scale;
  const std::size_t edges = n * edge_factor;
  std::vector<I> r(edges), cidx(edges);
  std::vector<T> v(edges);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < static_cast<std::int64_t>(edges); ++e) {
    std::uint64_t row = 0, col = 0;
    for (int level = 0; level < scale; ++level) {
      const double p =
          detail::sparse::uniform01(seed, 5 + level % 8, static_cast<std::uint64_t>(e) * 64 + level);
      const int quadrant = p < a ? 0 : p < a + b ? 1 : p < a + b + c ? 2 : 3;
      row = row * 2 + (quadrant >> 1);
      col = col * 2 + (quadrant & 1);
    }
    r[e] = static_cast<I>(row);
    cidx[e] = static_cast<I>(col);
    v[e] = static_cast<T>(1.0 - detail::sparse::uniform01(seed, 4, static_cast<std::uint64_t>(e)));
  }
  return coo_to_csr<T, I>(n, n, r, cidx, v);
}

}  // namespace gpuprim
