// Probe of SpMV y = A x on the bench's R-MAT matrix (gp::rmat<float,
// int32>(22, 16, 7): 2^22 rows, about 16 entries a row, power-law row
// lengths; x as the bench's, random in [0.5, 1.5)). Times production's
// merge-path SpMV (the kernel gp::spmv chooses for this matrix, launched as
// gpuprim::detail::cuda_spmv launches it) and cusparseSpMV (CSR,
// ALG_DEFAULT) against variants, each checked against production's y
// (every element, relative 1e-5 of the largest, as the bench's check).
// The profile's bound: L2 throughput (78 %), each 4-byte gather of x a
// 32-byte sector; the variants try to serve more gathers from L1 and to
// keep more of them in flight (spmv_rmat_variants.cuh has the kernels):
//  - the merge path with half the shared memory and 2 barriers a tile
//    instead of 3; the streams (values, columns, row ends) with no L1
//    allocation and x with L1::evict_last; the streams as 16-byte vectors;
//    the shared-memory carveout just large enough for full occupancy (the
//    rest is L1); tiles of a warp (no block barrier at all);
//  - production's hot-columns kernel (spmv_kernel::hot_columns, launched as
//    gp::spmv launches it on the matrix analysed once by prepare_spmv, the
//    analysis's time and gp::spmv's choice printed): warp tiles in
//    persistent blocks that hold x of the matrix's most frequent columns in
//    shared memory, so that a gather of a hot column is no L2 sector;
//    beside it the probe kernel it was promoted from, "variant as measured
//    at 78fa916" (spmv_probe::merge_tiles_hot, on the same recoding);
//  - a row split (4 or 8 lanes a row; longer rows a warp, rows over 4096
//    entries a block), for comparison.
// Prints per kernel: the median of 20 isolated calls and the per-call time
// of 20 queued batches of 10 (3 warm-ups), GB/s of the bench's minimum
// traffic (nnz x 8 + (rows + 1) x 4 + x read + y written), the ratio of
// cuSPARSE's isolated time to the kernel's, and the check. Also a
// device-to-device copy for the "% of copy" of the bench's tables.
// Usage: probe_spmv_rmat [scale] (default 22). Built and run by
// scripts/device-check.sh --probe-spmv-rmat (tune-spmv_rmat.txt). It also
// builds on its own, from the repository root:
//   nvcc -std=c++20 -O3 -arch=sm_90 --expt-relaxed-constexpr --extended-lambda \
//     -DGPUPRIM_HAS_CUDA=1 -Iinclude -I. -Ilab/probes -Xcompiler=-fopenmp \
//     lab/probes/probe_spmv_rmat.cu src/core/timing.cpp src/core/timing_cuda.cpp \
//     src/core/runtime_cuda.cpp -lcusparse -lgomp -o probe_spmv_rmat
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "lab/bench/inputs.hpp"
#include "probe_timing.cuh"
#include "spmv_rmat_variants.cuh"

namespace gp = gpuprim;
namespace sp = spmv_probe;
using sp::cache;

// A merge-tiles kernel's address, for its shared-memory carveout.
template <int TileThreads, int Items, int Vec, cache XC, cache SC>
const void* const merge_kernel =
    reinterpret_cast<const void*>(sp::merge_tiles<TileThreads, Items, Vec, XC, SC>);

#define CHECK_SPARSE(x)                                              \
  do {                                                               \
    const cusparseStatus_t e = (x);                                  \
    if (e != CUSPARSE_STATUS_SUCCESS)                                \
      probe_failed("cuSPARSE", cusparseGetErrorString(e), __LINE__); \
  } while (0)

namespace {

constexpr std::uint64_t input_seed = 20261124;  // the bench's (lab/bench/spmv_bench.cpp)

// The device matrix, x, y and the variants' scratch.
struct state {
  gp::device_csr_matrix<float, std::int32_t> A;
  sp::matrix_view view{};
  gp::device_vector<float> x, y, y_ref;
  int2* corners = nullptr;  // for the smallest tiles: the most corners
  int* carry_rows = nullptr;
  float* carry_values = nullptr;
  int* lists = nullptr;  // the row split's row lists (huge, then long)
  cudaStream_t stream = nullptr;
};

// max |a - b| / max |b|, as the bench's compare.
std::string compare(const std::vector<float>& got, const std::vector<float>& expected) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i])) return "NaN at row " + std::to_string(i);
    err = std::max(err, std::abs(double(got[i]) - double(expected[i])));
    scale = std::max(scale, std::abs(double(expected[i])));
  }
  char text[160];
  std::snprintf(text, sizeof text, "%s (max diff %.3g of max %.3g)",
                err <= 1e-5 * std::max(scale, 1e-30) ? "ok" : "DIFFERS", err, scale);
  return text;
}

// ---- the merge-path variants --------------------------------------------------------

template <int TileItems>
int tiles_of(const sp::matrix_view& A) {
  return static_cast<int>((static_cast<long long>(A.rows) + A.nnz + TileItems - 1) / TileItems);
}

template <int TileThreads, int Items, int Vec, cache XC, cache SC>
void run_merge(state& s) {
  constexpr int tile_items = TileThreads * Items;
  constexpr int tiles_per_block = sp::block_threads / TileThreads;
  const int tiles = tiles_of<tile_items>(s.view);
  const unsigned threads = sp::block_threads;
  sp::merge_partition<tile_items>
      <<<(tiles + 1 + threads - 1) / threads, threads, 0, s.stream>>>(tiles, s.view, s.corners);
  sp::merge_tiles<TileThreads, Items, Vec, XC, SC>
      <<<(tiles + tiles_per_block - 1) / tiles_per_block, threads, 0, s.stream>>>(
          s.view, s.x.data(), s.y.data(), s.corners, tiles, s.carry_rows, s.carry_values);
  sp::merge_fixup<<<(tiles + threads - 1) / threads, threads, 0, s.stream>>>(
      tiles, s.view.rows, s.carry_rows, s.carry_values, s.y.data());
}

// Sets the kernel's shared-memory carveout: -1 the driver's default; 0
// the smallest that keeps its full occupancy (the rest of the 256 KB is L1).
// Returns a description: registers, shared bytes, blocks per SM, carveout.
std::string set_carveout(const void* kernel, int carveout) {
  cudaFuncAttributes a{};
  CHECK_CUDA(cudaFuncGetAttributes(&a, kernel));
  CHECK_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutDefault));
  int blocks = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, sp::block_threads, 0));
  int percent = -1;
  if (carveout == 0) {
    int device = 0, max_shared = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(
        cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    // Each resident block also takes 1 KB the system reserves.
    const double need = double(blocks) * (double(a.sharedSizeBytes) + 1024.0);
    percent = std::min(100, static_cast<int>(std::ceil(100.0 * need / max_shared)));
    CHECK_CUDA(
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
    CHECK_CUDA(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, sp::block_threads, 0));
  }
  char text[160];
  std::snprintf(text, sizeof text, "%d regs, %zu B shared, %d blocks/SM, carveout %s", a.numRegs,
                a.sharedSizeBytes, blocks,
                percent < 0 ? "default" : (std::to_string(percent) + " %").c_str());
  return text;
}

// ---- the row split ------------------------------------------------------------------

// Rows longer than short_max (a warp each) and longer than huge_min (a
// block each, longest first), from the host's offsets, into s.lists.
struct split_lists {
  int n_huge = 0, n_long = 0;
};

constexpr int huge_min = 4096;

split_lists make_lists(const std::vector<std::int32_t>& offsets, int short_max, state& s) {
  std::vector<int> huge, longer;
  for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
    const int len = offsets[r + 1] - offsets[r];
    if (len > huge_min) {
      huge.push_back(static_cast<int>(r));
    } else if (len > short_max) {
      longer.push_back(static_cast<int>(r));
    }
  }
  std::sort(huge.begin(), huge.end(), [&](int a, int b) {
    return offsets[a + 1] - offsets[a] > offsets[b + 1] - offsets[b];
  });
  huge.insert(huge.end(), longer.begin(), longer.end());
  CHECK_CUDA(cudaMemcpy(s.lists, huge.data(), huge.size() * sizeof(int), cudaMemcpyHostToDevice));
  return {static_cast<int>(huge.size() - longer.size()), static_cast<int>(longer.size())};
}

template <int G, cache XC, cache SC>
void run_split(state& s, split_lists l, int short_max) {
  const sp::row_lists lists{s.lists, l.n_huge, s.lists + l.n_huge, l.n_long, short_max};
  sp::row_split<G, XC, SC>
      <<<sp::row_split_blocks<G>(s.view.rows, l.n_huge, l.n_long), sp::block_threads, 0,
         s.stream>>>(s.view, s.x.data(), s.y.data(), lists);
}

// ---- cuSPARSE -----------------------------------------------------------------------

struct cusparse_spmv {
  cusparseHandle_t handle{};
  cusparseSpMatDescr_t A{};
  cusparseDnVecDescr_t x{}, y{};
  void* buffer = nullptr;

  cusparse_spmv(const state& s, float* out) {
    auto v = s.A.view();
    CHECK_SPARSE(cusparseCreate(&handle));
    CHECK_SPARSE(cusparseSetStream(handle, s.stream));
    CHECK_SPARSE(cusparseCreateCsr(
        &A, static_cast<int64_t>(v.rows), static_cast<int64_t>(v.cols),
        static_cast<int64_t>(s.A.nnz()), const_cast<std::int32_t*>(v.row_offsets.data()),
        const_cast<std::int32_t*>(v.col_indices.data()), const_cast<float*>(v.values.data()),
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&x, static_cast<int64_t>(v.cols),
                                     const_cast<float*>(s.x.data()), CUDA_R_32F));
    CHECK_SPARSE(cusparseCreateDnVec(&y, static_cast<int64_t>(v.rows), out, CUDA_R_32F));
    std::size_t bytes = 0;
    const float one = 1, zero = 0;
    CHECK_SPARSE(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x,
                                         &zero, y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    CHECK_CUDA(cudaMalloc(&buffer, std::max<std::size_t>(bytes, 16)));
  }
  ~cusparse_spmv() {
    cusparseDestroyDnVec(x);
    cusparseDestroyDnVec(y);
    cusparseDestroySpMat(A);
    cusparseDestroy(handle);
    cudaFree(buffer);
  }
  void operator()() const {
    const float one = 1, zero = 0;
    CHECK_SPARSE(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, x, &zero, y,
                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  }
};

struct variant {
  const char* name;
  const char* bound;                     // what it attacks
  std::function<std::string()> prepare;  // before its timing: carveout, lists; a description
  std::function<void()> run;
};

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // every finished line reaches the file
  const int scale = argc > 1 ? std::atoi(argv[1]) : 22;
  int device = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));

  const auto host = gp::rmat<float, std::int32_t>(scale, 16, 7);
  const auto stats = host.stats();
  const gp::spmv_choice choice = gp::choose_spmv_kernel(stats);
  std::printf(
      "probe_spmv_rmat: %s, %d SMs, L2 %d MB; R-MAT 2^%d: %zu rows, %zu entries (mean %.2f, "
      "longest %zu, %zu empty); gp::spmv chooses %s\n",
      prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20, scale, host.rows(), host.nnz(),
      stats.mean_row(), stats.max_row, stats.empty_rows,
      choice.kernel == gp::spmv_kernel::merge_path ? "merge_path"
                                                   : "another kernel (not merge_path)");
  if (host.rows() + host.nnz() >= (std::size_t{1} << 31)) {
    std::printf("rows + nnz must be below 2^31 for the variants\n");
    return 1;
  }

  state s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  s.A = gp::device_csr_matrix<float, std::int32_t>(host);
  {
    std::vector<float> hx(host.cols());
    for (std::size_t i = 0; i < hx.size(); ++i)
      hx[i] = gp::bench::random_value<float>(input_seed ^ 1, i);
    s.x = gp::to_device(hx);
  }
  s.y = gp::device_vector<float>(host.rows());
  s.y_ref = gp::device_vector<float>(host.rows());
  const auto dv = s.A.view();
  s.view = {static_cast<int>(host.rows()), static_cast<int>(host.nnz()), dv.row_offsets.data(),
            dv.col_indices.data(), dv.values.data()};
  const int max_tiles = tiles_of<256>(s.view);
  CHECK_CUDA(cudaMalloc(&s.corners, (max_tiles + 1) * sizeof(int2)));
  CHECK_CUDA(cudaMalloc(&s.carry_rows, max_tiles * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&s.carry_values, max_tiles * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&s.lists, host.rows() * sizeof(int)));
  CHECK_CUDA(cudaDeviceSynchronize());

  const double bytes = double(host.nnz()) * 8 + double(host.rows() + 1) * 4 +
                       double(host.cols()) * 4 + double(host.rows()) * 4;

  // The copy roofline: a device-to-device copy of 2^27 floats (read + write).
  {
    const std::size_t n = std::size_t{1} << 27;
    float *a = nullptr, *b = nullptr;
    CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
    const float ms = median_queued_ms(
        [&] {
          CHECK_CUDA(cudaMemcpyAsync(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice, s.stream));
        },
        s.stream);
    std::printf("copy of 2^27 floats: %.1f us, %.0f GB/s read + write\n", ms * 1e3,
                2.0 * n * sizeof(float) / (ms * 1e6));
    free_device(a, b);
  }
  std::printf("GB/s below: the bench's minimum traffic, %.1f MB a call\n\n", bytes / 1e6);

  // Production: the merge path as gp::spmv launches it for this matrix.
  auto production = [&] {
    gp::cuda_impl::launch_merge_path<float, std::int32_t>(1.0f, dv, s.x.data(), 0.0f, s.y.data(),
                                                            s.stream);
  };
  production();
  CHECK_CUDA(cudaStreamSynchronize(s.stream));
  CHECK_CUDA(cudaMemcpy(s.y_ref.data(), s.y.data(), host.rows() * sizeof(float),
                        cudaMemcpyDeviceToDevice));
  const std::vector<float> ref = gp::to_host(s.y_ref);

  const cusparse_spmv vendor(s, s.y.data());
  const float vendor_ms = median_ms([&] { vendor(); }, s.stream);

  split_lists lists4{}, lists8{};
  // A row split's preparation: its lists (rows of up to short_max entries
  // short), and how many rows are huge and long.
  auto make_split = [&](split_lists& lists, int short_max) {
    return [&lists, short_max, &host, &s] {
      lists = make_lists(host.row_offsets(), short_max, s);
      return std::to_string(lists.n_huge) + " huge, " + std::to_string(lists.n_long) + " long rows";
    };
  };
  // The same matrix with prepare_spmv's column analysis, for production's
  // hot-columns kernel (a second device copy: the first stays unanalysed).
  gp::device_csr_matrix<float, std::int32_t> prepared(host);
  const auto analysis_start = std::chrono::steady_clock::now();
  prepared.prepare_spmv();
  const double analysis_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - analysis_start)
          .count();
  const auto pv = prepared.view();
  auto hot_about = [&] {
    char text[200];
    std::snprintf(text, sizeof text,
                  "%zu hot columns (%.1f %% of the entries); analysis (prepare_spmv) %.0f ms once",
                  pv.stats.hot_columns, 100.0 * pv.stats.hot_entries / double(host.nnz()),
                  analysis_ms);
    return std::string(text);
  };
  // Production's hot-columns path as gp::spmv launches it for the analysed
  // matrix (false: it fell back, nothing enqueued).
  auto hot_columns = [&] {
    if (!gp::cuda_impl::launch_merge_path_hot<float, std::int32_t>(1.0f, pv, s.x.data(), 0.0f,
                                                                     s.y.data(), s.stream)) {
      std::printf(
          "the hot-columns kernel did not run (no hot column, or the table does not fit)\n");
      std::exit(1);
    }
  };
  // The hot-columns kernel as the probe measured it at 78fa916
  // (sp::merge_tiles_hot: 1 x 1024 threads a SM, 16-byte streams, int2
  // corners), fed with the same recoded column indices and table columns.
  const int n_hot = static_cast<int>(pv.hot.columns.size());
  float* variant_hot_x = nullptr;
  CHECK_CUDA(cudaMalloc(&variant_hot_x, std::max(1, n_hot) * sizeof(float)));
  unsigned variant_grid = 0;
  auto variant_kernel = sp::merge_tiles_hot<8, 1, cache::ldg, cache::no_allocate>;
  auto hot_variant_prepare = [&] {
    if (n_hot == 0 || n_hot % 4 != 0) {
      std::printf("the 78fa916 variant needs a table of a multiple of 4 columns (%d)\n", n_hot);
      std::exit(1);
    }
    const std::size_t bytes = sp::hot_variant_bytes<8>(n_hot);
    CHECK_CUDA(cudaFuncSetAttribute(variant_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(bytes)));
    CHECK_CUDA(cudaFuncSetAttribute(variant_kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
    int blocks = 0;
    CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, variant_kernel,
                                                             sp::hot_variant_threads, bytes));
    variant_grid = static_cast<unsigned>(std::max(1, blocks) * prop.multiProcessorCount);
    cudaFuncAttributes a{};
    CHECK_CUDA(cudaFuncGetAttributes(&a, variant_kernel));
    char text[160];
    std::snprintf(text, sizeof text, "%d hot columns, %zu B shared, %d regs, %d blocks/SM", n_hot,
                  bytes, a.numRegs, blocks);
    return std::string(text);
  };
  auto hot_variant_run = [&] {
    constexpr int tile_items = 32 * 8;
    const int tiles = tiles_of<tile_items>(s.view);
    const unsigned threads = sp::block_threads;
    sp::matrix_view view = s.view;
    view.cols = pv.hot.col_indices.data();
    sp::merge_partition<tile_items>
        <<<(tiles + 1 + threads - 1) / threads, threads, 0, s.stream>>>(tiles, view, s.corners);
    sp::gather_hot_x<<<(n_hot + threads - 1) / threads, threads, 0, s.stream>>>(
        s.x.data(), pv.hot.columns.data(), n_hot, variant_hot_x);
    variant_kernel<<<variant_grid, sp::hot_variant_threads, sp::hot_variant_bytes<8>(n_hot),
                     s.stream>>>(view, s.x.data(), s.y.data(), s.corners, tiles, s.carry_rows,
                                 s.carry_values, variant_hot_x, n_hot);
    sp::merge_fixup<<<(tiles + threads - 1) / threads, threads, 0, s.stream>>>(
        tiles, s.view.rows, s.carry_rows, s.carry_values, s.y.data());
  };
  auto none = [] { return std::string(); };
  auto carveout = [](const void* kernel, int c) {
    return [kernel, c] { return set_carveout(kernel, c); };
  };
  const void* m256_ldg = merge_kernel<256, 8, 1, cache::ldg, cache::ldg>;
  const void* m256_na = merge_kernel<256, 8, 1, cache::ldg, cache::no_allocate>;
  const void* m256_el = merge_kernel<256, 8, 1, cache::evict_last, cache::no_allocate>;
  const void* m256_v4 = merge_kernel<256, 8, 4, cache::evict_last, cache::no_allocate>;
  const void* w8_v4 = merge_kernel<32, 8, 4, cache::evict_last, cache::no_allocate>;
  const void* w8_ldg = merge_kernel<32, 8, 4, cache::ldg, cache::ldg>;
  const void* w8_l2 = merge_kernel<32, 8, 4, cache::evict_last, cache::stream_l2>;
  const void* w16_v4 = merge_kernel<32, 16, 4, cache::evict_last, cache::no_allocate>;

  const std::vector<variant> variants = {
      {"production merge path (256 x 8)", "(reference) L2-bound: a 32-byte sector a gather of x",
       none, production},
      {"cusparseSpMV (CSR, ALG_DEFAULT)", "(vendor)", none, [&] { vendor(); }},
      {"merge 256x8, one staging array, 2 barriers",
       "barrier stalls (2 a tile, not 3); half the shared memory, more L1 for x",
       carveout(m256_ldg, -1), [&] { run_merge<256, 8, 1, cache::ldg, cache::ldg>(s); }},
      {"  + streams L1::no_allocate", "L1 hits of x: values, columns, row ends take no L1 line",
       carveout(m256_na, -1), [&] { run_merge<256, 8, 1, cache::ldg, cache::no_allocate>(s); }},
      {"  + x L1::evict_last", "L1 hits of x: x's lines outlive other lines", carveout(m256_el, -1),
       [&] { run_merge<256, 8, 1, cache::evict_last, cache::no_allocate>(s); }},
      {"  + 16-byte streams", "load issue and latency: 2 vector loads feed 4 independent gathers",
       carveout(m256_v4, -1),
       [&] { run_merge<256, 8, 4, cache::evict_last, cache::no_allocate>(s); }},
      {"  + carveout fit", "L1 capacity: shared carveout only what full occupancy needs",
       carveout(m256_v4, 0),
       [&] { run_merge<256, 8, 4, cache::evict_last, cache::no_allocate>(s); }},
      {"warp tiles 32x8, 16-byte streams, ldg", "barrier stalls: no block barrier at all",
       carveout(w8_ldg, -1), [&] { run_merge<32, 8, 4, cache::ldg, cache::ldg>(s); }},
      {"  + streams no_allocate, x evict_last", "barriers and L1 hits of x together",
       carveout(w8_v4, -1), [&] { run_merge<32, 8, 4, cache::evict_last, cache::no_allocate>(s); }},
      {"  + carveout fit", "and L1 capacity", carveout(w8_v4, 0),
       [&] { run_merge<32, 8, 4, cache::evict_last, cache::no_allocate>(s); }},
      {"  + streams L2::evict_first", "L2 hits of x: the streams leave L2 first",
       carveout(w8_l2, -1), [&] { run_merge<32, 8, 4, cache::evict_last, cache::stream_l2>(s); }},
      {"warp tiles 32x16, no_allocate, evict_last",
       "half the tiles: fewer corners, carries and searches", carveout(w16_v4, -1),
       [&] { run_merge<32, 16, 4, cache::evict_last, cache::no_allocate>(s); }},
      {"row split, 4 lanes a row (<= 64)",
       "no shared memory (all L1 for x), no search; idle lanes on short rows",
       make_split(lists4, 64),
       [&] { run_split<4, cache::evict_last, cache::no_allocate>(s, lists4, 64); }},
      {"row split, 8 lanes a row (<= 128)", "the same, fewer long rows", make_split(lists8, 128),
       [&] { run_split<8, cache::evict_last, cache::no_allocate>(s, lists8, 128); }},
      {"row split, 8 lanes, ldg", "the same with production's loads",
       [&] {
         lists8 = make_lists(host.row_offsets(), 128, s);
         return std::string();
       },
       [&] { run_split<8, cache::ldg, cache::ldg>(s, lists8, 128); }},
      {"production hot columns (prepare_spmv)",
       "L2 sectors: gathers of the hottest columns read shared memory",
       [&] {
         return hot_about() + "; gp::spmv chooses " +
                (gp::choose_spmv_kernel(pv.stats).kernel == gp::spmv_kernel::hot_columns
                     ? "it"
                     : "another kernel");
       },
       hot_columns},
      {"variant as measured at 78fa916",
       "the hot-columns probe kernel (440 us on H200 at 78fa916) beside production, on "
       "prepare_spmv's recoding",
       hot_variant_prepare, hot_variant_run},
  };

  std::printf("%-44s %9s %9s %7s %8s  %s\n", "kernel", "us", "queued", "GB/s", "x cuSP", "check");
  for (const variant& v : variants) {
    const std::string about = v.prepare();
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemsetAsync(s.y.data(), 0xff, host.rows() * sizeof(float), s.stream));
    v.run();
    CHECK_CUDA(cudaStreamSynchronize(s.stream));
    CHECK_CUDA(cudaGetLastError());
    const std::string check = compare(gp::to_host(s.y), ref);
    const float ms = median_ms(v.run, s.stream);
    const float queued = median_queued_ms(v.run, s.stream);
    std::printf("%-44s %9.1f %9.1f %7.0f %7.3fx  %s\n", v.name, ms * 1e3, queued * 1e3,
                bytes / (ms * 1e6), vendor_ms / ms, check.c_str());
    std::printf("    bound: %s%s%s\n", v.bound, about.empty() ? "" : "; ", about.c_str());
  }
  std::printf("\nx cuSP: cuSPARSE's isolated median (%.1f us) over the kernel's\n",
              vendor_ms * 1e3);
  free_device(s.corners, s.carry_rows, s.carry_values, s.lists, variant_hot_x);
  CHECK_CUDA(cudaStreamDestroy(s.stream));
  return 0;
}
