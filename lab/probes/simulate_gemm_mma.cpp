// CPU simulation of gemm_bf16_mma_pipelined_kernel (lab/ladder/gemm_mma.cuh):
// the same block order, chunk assignment, swizzle, stage ring, ldmatrix lane
// addressing and epilogue, with ldmatrix / mma.sync m16n8k16 emulated from
// the fragment layouts of the PTX ISA. Run on shapes that take both ways of
// filling the stages and every kind of edge, against a double reference.
// The check of the kernel's index arithmetic on a machine without a GPU
// (the test lab.simulate_gemm_mma).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "lab/ladder/gemm_swizzle.hpp"

using gpuprim::ladder::swizzled_chunk;

template <int BM, int BN, int BK, int WM, int WN, int Stages, int GroupM = 16>
struct shape {
  static constexpr int bm = BM, bn = BN, bk = BK, wm = WM, wn = WN, stages = Stages;
  static constexpr int warps_n = BN / WN, threads = (BM / WM) * (BN / WN) * 32;
  static constexpr int acr = BK / 8, bcr = BN / 8;
  static constexpr int a_chunks_per_thread = BM * BK / 8 / threads;
  static constexpr int b_chunks_per_thread = BK * BN / 8 / threads;
  static constexpr int group_m = GroupM;
};

struct problem {
  int m, n, k;
  std::size_t lda, ldb, ldc;
  float alpha, beta;
  bool pair_stores;
  std::vector<float> a, b, c;  // bf16 values held as floats
};

float bf16_round(float x) {
  // Round to nearest even at 8 bits of mantissa (values here are finite).
  unsigned u;
  std::memcpy(&u, &x, 4);
  u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  std::memcpy(&x, &u, 4);
  return x;
}

using chunk = std::array<float, 8>;

template <class S>
void simulate(problem& p, bool async) {
  const int tiles_m = (p.m + S::bm - 1) / S::bm, tiles_n = (p.n + S::bn - 1) / S::bn;
  const int blocks = tiles_m * tiles_n;
  std::vector<int> covered(blocks, 0);
  for (int id = 0; id < blocks; ++id) {
    // 1. block order
    const int per_group = S::group_m * tiles_n;
    const int first_m = id / per_group * S::group_m;
    const int rows_in_group = std::min(tiles_m - first_m, S::group_m);
    const int tile_m = first_m + id % per_group % rows_in_group;
    const int tile_n = id % per_group / rows_in_group;
    if (tile_m < 0 || tile_m >= tiles_m || tile_n < 0 || tile_n >= tiles_n) {
      std::printf("block %d -> tile (%d, %d) outside\n", id, tile_m, tile_n);
      std::exit(1);
    }
    ++covered[tile_m * tiles_n + tile_n];
    const int row0 = tile_m * S::bm, col0 = tile_n * S::bn;
    const int k_tiles = (p.k + S::bk - 1) / S::bk;
    // shared memory, per slot: A's chunks then B's
    const int a_chunks = S::bm * S::acr, b_chunks = S::bk * S::bcr;
    std::vector<std::vector<chunk>> smem(S::stages, std::vector<chunk>(a_chunks + b_chunks));
    for (auto& s : smem)
      for (auto& c : s)
        c.fill(NAN);  // a chunk read before it is written shows up

    const auto fetch = [&](const std::vector<float>& x, std::size_t ld, int rows, int cols, int r,
                           int c) {
      chunk v;
      const bool whole_inside = r < rows && c < cols;
      for (int e = 0; e < 8; ++e) {
        if (async) {
          // cp.async of 16 bytes: the chunk is whole or zero (k, n % 8 == 0)
          if (whole_inside && c + e >= cols) {
            std::printf("async chunk crosses the edge\n");
            std::exit(1);
          }
          v[e] = whole_inside ? x[std::size_t(r) * ld + c + e] : 0.0f;
        } else {
          v[e] = r < rows && c + e < cols ? x[std::size_t(r) * ld + c + e] : 0.0f;
        }
      }
      return v;
    };
    const auto load_stage = [&](int slot, int kt) {
      const int k0 = kt * S::bk;
      for (int tid = 0; tid < S::threads; ++tid) {
        // a thread's chunks: `pass` rows apart, at constant offsets from its first
        const int a_pass = S::threads / S::acr, b_pass = S::threads / S::bcr;
        const int a_r = tid / S::acr, a_ch = tid % S::acr, b_r = tid / S::bcr, b_ch = tid % S::bcr;
        for (int i = 0; i < S::a_chunks_per_thread; ++i) {
          smem[slot][swizzled_chunk<S::acr>(a_r, a_ch) + i * a_pass * S::acr] =
              fetch(p.a, p.lda, p.m, p.k, row0 + a_r + i * a_pass, k0 + a_ch * 8);
        }
        for (int i = 0; i < S::b_chunks_per_thread; ++i) {
          smem[slot][a_chunks + swizzled_chunk<S::bcr>(b_r, b_ch) + i * b_pass * S::bcr] =
              fetch(p.b, p.ldb, p.k, p.n, k0 + b_r + i * b_pass, col0 + b_ch * 8);
        }
      }
    };

    constexpr int MT = S::wm / 16, NT = S::wn / 8;
    const int warps = S::threads / 32;
    // acc[warp][lane][i][j][e]
    std::vector<float> acc(std::size_t(warps) * 32 * MT * NT * 4, 0.0f);
    const auto at = [&](int w, int l, int i, int j, int e) -> float& {
      return acc[(((std::size_t(w) * 32 + l) * MT + i) * NT + j) * 4 + e];
    };

    // ldmatrix.x4: lane 8q + j gives the address of row j of matrix q; reg
    // q of lane l holds matrix q's (row l / 4, columns 2 (l % 4), +1), or
    // with .trans (rows 2 (l % 4), +1 of column l / 4).
    const auto ldmatrix = [&](const std::vector<chunk>& s, const int(&address)[32], bool trans,
                              float(&reg)[32][4][2]) {
      for (int l = 0; l < 32; ++l)
        for (int q = 0; q < 4; ++q) {
          const int g = l / 4, t = l % 4;
          if (!trans) {
            const chunk& row = s[address[8 * q + g]];
            reg[l][q][0] = row[2 * t];
            reg[l][q][1] = row[2 * t + 1];
          } else {
            reg[l][q][0] = s[address[8 * q + 2 * t]][g];
            reg[l][q][1] = s[address[8 * q + 2 * t + 1]][g];
          }
        }
    };

    // Fragments of every warp for 16 of k: [warp][tile][lane][reg][half].
    struct fragments {
      std::vector<std::array<std::array<std::array<float, 2>, 4>, 32>> a;  // warps * MT
      std::vector<std::array<std::array<std::array<float, 2>, 2>, 32>> b;  // warps * NT
    };
    const auto load_fragments = [&](fragments& f, int slot, int kk) {
      const std::vector<chunk>& s = smem[slot];
      f.a.resize(std::size_t(warps) * MT);
      f.b.resize(std::size_t(warps) * NT);
      for (int warp = 0; warp < warps; ++warp) {
        const int warp_m = warp / S::warps_n, warp_n = warp % S::warps_n;
        for (int i = 0; i < MT; ++i) {
          int address[32];
          for (int lane = 0; lane < 32; ++lane) {
            const int r = warp_m * S::wm + i * 16 + lane % 16, ch = kk * 2 + lane / 16;
            address[lane] = swizzled_chunk<S::acr>(r, ch);
          }
          float t[32][4][2];
          ldmatrix(s, address, false, t);
          for (int l = 0; l < 32; ++l)
            for (int q = 0; q < 4; ++q)
              for (int e = 0; e < 2; ++e)
                f.a[warp * MT + i][l][q][e] = t[l][q][e];
        }
        for (int j = 0; j < NT / 2; ++j) {
          int address[32];
          for (int lane = 0; lane < 32; ++lane) {
            const int r = kk * 16 + lane % 16, ch = (warp_n * S::wn + j * 16) / 8 + lane / 16;
            address[lane] = a_chunks + swizzled_chunk<S::bcr>(r, ch);
          }
          float t[32][4][2];
          ldmatrix(s, address, true, t);
          for (int l = 0; l < 32; ++l)
            for (int e = 0; e < 2; ++e) {
              f.b[warp * NT + 2 * j][l][0][e] = t[l][0][e];
              f.b[warp * NT + 2 * j][l][1][e] = t[l][1][e];
              f.b[warp * NT + 2 * j + 1][l][0][e] = t[l][2][e];
              f.b[warp * NT + 2 * j + 1][l][1][e] = t[l][3][e];
            }
        }
      }
    };
    // mma.sync m16n8k16 .row.col: A (g, 2t..) in a0 / (g + 8) a1 / k + 8 in
    // a2, a3; B (k 2t.., column g) in b0, k + 8 in b1.
    const auto multiply = [&](const fragments& f) {
      for (int warp = 0; warp < warps; ++warp)
        for (int i = 0; i < MT; ++i)
          for (int j = 0; j < NT; ++j) {
            const auto& af = f.a[warp * MT + i];
            const auto& bf = f.b[warp * NT + j];
            double A[16][16], B[16][8];
            for (int l = 0; l < 32; ++l) {
              const int g = l / 4, t = l % 4;
              for (int e = 0; e < 2; ++e) {
                A[g][2 * t + e] = af[l][0][e];
                A[g + 8][2 * t + e] = af[l][1][e];
                A[g][2 * t + 8 + e] = af[l][2][e];
                A[g + 8][2 * t + 8 + e] = af[l][3][e];
                B[2 * t + e][g] = bf[l][0][e];
                B[2 * t + 8 + e][g] = bf[l][1][e];
              }
            }
            for (int l = 0; l < 32; ++l) {
              const int g = l / 4, t = l % 4;
              for (int e = 0; e < 4; ++e) {
                const int r = g + (e >= 2 ? 8 : 0), c = 2 * t + e % 2;
                double sum = 0;
                for (int q = 0; q < 16; ++q)
                  sum += A[r][q] * B[q][c];
                at(warp, l, i, j, e) += static_cast<float>(sum);
              }
            }
          }
    };

    // 3. the ring with double-buffered fragments, in the program order of
    // the kernel (a slot refilled before its last fragments were loaded
    // gives a wrong product)
    constexpr int KK = S::bk / 16;
    for (int s = 0; s < S::stages - 1; ++s)
      if (s < k_tiles) load_stage(s, s);
    fragments f[2];
    load_fragments(f[0], 0, 0);
    int slot = 0, refill = S::stages - 1;
    for (int kt = 0; kt < k_tiles; ++kt) {
      for (int kk = 0; kk < KK; ++kk) {
        if (kk == 0) {
          const int ahead = kt + S::stages - 1;
          if (ahead < k_tiles) load_stage(refill, ahead);
          refill = refill + 1 == S::stages ? 0 : refill + 1;
        }
        if (kk == KK - 1) slot = slot + 1 == S::stages ? 0 : slot + 1;
        load_fragments(f[(kk + 1) % 2], slot, (kk + 1) % KK);
        multiply(f[kk % 2]);
      }
    }

    // 5. epilogue
    const auto store_pair = [&](int r, int c, float x, float y) {
      if (r >= p.m || c >= p.n) return;
      float* out = p.c.data() + std::size_t(r) * p.ldc + c;
      if (p.pair_stores && c + 1 < p.n) {
        out[0] = p.alpha * x + (p.beta != 0 ? p.beta * out[0] : 0);
        out[1] = p.alpha * y + (p.beta != 0 ? p.beta * out[1] : 0);
        return;
      }
      out[0] = p.alpha * x + (p.beta != 0.0f ? p.beta * out[0] : 0.0f);
      if (c + 1 < p.n) out[1] = p.alpha * y + (p.beta != 0.0f ? p.beta * out[1] : 0.0f);
    };
    for (int warp = 0; warp < warps; ++warp) {
      const int warp_m = warp / S::warps_n, warp_n = warp % S::warps_n;
      for (int lane = 0; lane < 32; ++lane) {
        const int g = lane / 4, t = lane % 4;
        for (int i = 0; i < MT; ++i)
          for (int j = 0; j < NT; ++j) {
            const int r = row0 + warp_m * S::wm + i * 16 + g,
                      c = col0 + warp_n * S::wn + j * 8 + 2 * t;
            store_pair(r, c, at(warp, lane, i, j, 0), at(warp, lane, i, j, 1));
            store_pair(r + 8, c, at(warp, lane, i, j, 2), at(warp, lane, i, j, 3));
          }
      }
    }
  }
  for (int t = 0; t < blocks; ++t)
    if (covered[t] != 1) {
      std::printf("tile %d covered %d times\n", t, covered[t]);
      std::exit(1);
    }
}

template <class S>
bool check(int m, int n, int k, std::size_t lda, std::size_t ldb, std::size_t ldc, float alpha,
           float beta, std::mt19937& rng) {
  problem p{m, n, k, lda, ldb, ldc, alpha, beta, ldc % 2 == 0, {}, {}, {}};
  std::uniform_real_distribution<float> d(-1, 1);
  p.a.resize(std::size_t(m) * lda);
  p.b.resize(std::size_t(k) * ldb);
  p.c.resize(std::size_t(m) * ldc);
  for (auto& x : p.a)
    x = bf16_round(d(rng));
  for (auto& x : p.b)
    x = bf16_round(d(rng));
  for (auto& x : p.c)
    x = beta == 0 ? NAN : d(rng);
  const std::vector<float> c0 = p.c;
  const bool async = k % 8 == 0 && n % 8 == 0 && lda % 8 == 0 && ldb % 8 == 0;
  simulate<S>(p, async);
  double worst = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int q = 0; q < k; ++q)
        s += double(p.a[std::size_t(i) * lda + q]) * p.b[std::size_t(q) * ldb + j];
      const double e = alpha * s + (beta == 0 ? 0.0 : beta * double(c0[std::size_t(i) * ldc + j]));
      const double err = std::abs(e - p.c[std::size_t(i) * ldc + j]);
      if (!(err <= 1e-4 * (k + 2))) {
        std::printf("FAIL %d x %d x %d: C(%d, %d) = %g, expected %g\n", m, n, k, i, j,
                    p.c[std::size_t(i) * ldc + j], e);
        return false;
      }
      worst = std::max(worst, err);
    }
    for (std::size_t j = n; j < ldc; ++j)
      if (std::memcmp(&p.c[i * ldc + j], &c0[i * ldc + j], 4) != 0) {
        std::printf("FAIL: padding of C touched at (%d, %zu)\n", i, j);
        return false;
      }
  }
  std::printf("ok %s %4d x %4d x %4d  ld %zu %zu %zu  alpha %g beta %g  max error %.2e\n",
              async ? "cp.async" : "elements", m, n, k, lda, ldb, ldc, alpha, beta, worst);
  return true;
}

int main() {
  std::mt19937 rng(7);
  using wide = shape<128, 256, 32, 64, 64, 4>;
  using deep = shape<128, 256, 64, 64, 64, 3>;
  bool ok = true;
  ok &= check<wide>(1, 1, 1, 1, 1, 1, 1, 0, rng);
  ok &= check<wide>(31, 33, 17, 17, 33, 33, 1, 0, rng);
  ok &= check<wide>(200, 264, 136, 136, 264, 264, 1, 0, rng);
  ok &= check<wide>(264, 520, 328, 328, 520, 520, 1, 0, rng);
  ok &= check<wide>(130, 8, 8, 8, 8, 8, 1, 0, rng);
  ok &= check<wide>(150, 264, 72, 80, 280, 275, 2, -1.5f, rng);
  ok &= check<wide>(77, 45, 39, 41, 47, 46, -0.5f, 0, rng);
  ok &= check<wide>(129, 130, 131, 131, 130, 130, 1, 0, rng);
  ok &= check<wide>(64, 64, 0, 1, 64, 64, 1, 0.5f, rng);      // k == 0: beta C
  ok &= check<wide>(2100, 520, 40, 40, 520, 520, 1, 0, rng);  // 17 tile rows: a partial group
  ok &= check<deep>(264, 520, 328, 328, 520, 520, 1, 0, rng);
  ok &= check<deep>(77, 45, 39, 41, 47, 46, 1, 0, rng);
  // the other shapes of lab/probes/probe_gemm_mma.cu
  ok &= check<shape<128, 256, 32, 64, 64, 6, 8>>(300, 520, 200, 200, 520, 520, 1, 0, rng);
  ok &= check<shape<128, 256, 32, 64, 64, 4, 1>>(300, 520, 200, 200, 520, 520, 1, 0, rng);
  ok &= check<shape<256, 128, 32, 64, 64, 4>>(300, 264, 200, 200, 264, 264, 1, 0, rng);
  ok &= check<shape<128, 128, 32, 64, 64, 4>>(300, 264, 200, 200, 264, 264, 1, 0, rng);
  ok &= check<shape<128, 256, 64, 64, 64, 4>>(300, 520, 200, 200, 520, 520, 1, 0, rng);
  std::puts(ok ? "all ok" : "FAILED");
  return ok ? 0 : 1;
}
