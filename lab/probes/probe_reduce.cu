// Tuning probe for the single-pass GPU reduction: times a float sum with
// several block shapes (threads, 16-byte loads in flight per thread, blocks
// per SM of the persistent grid) against cub::DeviceReduce::Sum in one
// process on the same buffers, isolated (one call between two events) and
// queued (ten calls back to back), for the 2^20 target (>= 1.5x CUB), where
// the launch and the last block's work, not memory, set the time. Checks
// each result against a double sum. Not part of the build or the tests;
// built and run by scripts/device-check.sh --tune-reduce (tune-reduce.txt).
// Medians of 20 after 3 warm-ups, CUDA events.
#include <cuda.h>  // driver API types only: cuLaunchKernel is found at run time
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/device/device_reduce.cuh"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

namespace {

// A reduction shape: threads per block, loads in flight per thread, and
// blocks per SM of the persistent grid.
template <int Threads, int Unroll, gc::reduce_finish Finish = gc::reduce_finish::polled>
void run_variant(int blocks_per_sm, const float* in, std::size_t n, float* out, double want,
                 float cub_ms, float cub_queued_ms) {
  gc::reduce_config config{};
  config.blocks_per_multiprocessor = blocks_per_sm;
  const auto sum = [&] {
    gc::launch_reduce_single_pass<4, Threads, Unroll, Finish>(
        in, n, out, 0.0f, gp::plus{}, gp::detail::unary_fetch<gp::identity>{}, nullptr, config);
  };
  const float ms = median_ms(sum);
  const float queued_ms = median_queued_ms(sum);
  float got = 0;
  CHECK_CUDA(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
  const double error = std::fabs(double(got) - want) / std::max(1.0, std::fabs(want));
  std::printf(
      "  %4d threads x %d loads, %d blocks/SM, %s: %8.2f us %.2fx CUB, queued %8.2f us %.2fx"
      "  rel error %.1e\n",
      Threads, Unroll, blocks_per_sm, Finish == gc::reduce_finish::polled ? "polled" : "ticket",
      ms * 1e3, cub_ms / ms, queued_ms * 1e3, cub_queued_ms / queued_ms, error);
}

void compare(std::size_t n) {
  std::mt19937_64 g(n);
  std::vector<float> host(n);
  double want = 0;
  for (auto& v : host) {
    v = float(double(g() >> 11) * 0x1p-53);
    want += v;
  }
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const cub_call cub_sum([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n);
  });
  const float cub_ms = median_ms(cub_sum);
  const float cub_queued_ms = median_queued_ms(cub_sum);
  std::printf("float sum, n = 2^%d: CUB %.2f us, queued %.2f us\n", int(std::log2(double(n))),
              cub_ms * 1e3, cub_queued_ms * 1e3);
  // The default (256 x 4 at 4 blocks per SM) first.
  for (int b : {4, 1, 2, 8})
    run_variant<256, 4>(b, in, n, out, want, cub_ms, cub_queued_ms);
  // The last block found by an atomic ticket (each block's partial stored,
  // then fetch_add) instead of polling published partials.
  run_variant<256, 4, gc::reduce_finish::ticket>(4, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<1024, 2, gc::reduce_finish::ticket>(1, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<256, 2>(4, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<256, 8>(2, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<512, 4>(2, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<128, 4>(8, in, n, out, want, cub_ms, cub_queued_ms);
  run_variant<1024, 2>(1, in, n, out, want, cub_ms, cub_queued_ms);
  free_device(in, out);
}

__global__ void empty_kernel() {}

// Host microseconds one enqueue takes (the call returns before the GPU
// runs it): median of 200 calls, the stream synchronized every 10 so the
// launch queue never fills.
template <class F>
double host_enqueue_us(const F& f) {
  std::vector<double> t;
  for (int i = 0; i < 200; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                    .count());
    if (i % 10 == 9) CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Where an isolated small sum's time goes: an empty kernel's isolated and
// queued time (the launch floor), the host time of each enqueue, and sums
// of T with their input rotated over copies that together exceed L2 (as in
// the harness), the last block found by polling and by the ticket.
template <class T>
void from_memory(std::size_t n) {
  const std::size_t bytes = n * sizeof(T);
  const std::size_t copies = std::max<std::size_t>(2, (std::size_t{160} << 20) / bytes + 1);
  T *in, *out;
  CHECK_CUDA(cudaMalloc(&in, copies * bytes));
  CHECK_CUDA(cudaMalloc(&out, sizeof(T)));
  CHECK_CUDA(cudaMemset(in, 0, copies * bytes));
  std::size_t call = 0;
  const cub_call cub_sum([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceReduce::Sum(temp, temp_bytes, in + (call++ % copies) * n, out, n);
  });
  const float cub_ms = median_ms(cub_sum), cub_queued = median_queued_ms(cub_sum);
  std::printf("2^%d %s from memory (rotated): CUB %.2f us, queued %.2f us, host enqueue %.2f us\n",
              int(std::log2(double(n))), sizeof(T) == 4 ? "floats" : "doubles", cub_ms * 1e3,
              cub_queued * 1e3, host_enqueue_us(cub_sum));
  const auto time_ours = [&](auto finish) {
    constexpr gc::reduce_finish how = decltype(finish)::value;
    const auto ours = [&] {
      gc::launch_reduce_single_pass<16 / sizeof(T), gc::reduce_config::threads,
                                    gc::reduce_config::unroll, how>(
          in + (call++ % copies) * n, n, out, T{}, gp::plus{},
          gp::detail::unary_fetch<gp::identity>{}, nullptr, gc::reduce_config{});
    };
    const float our_ms = median_ms(ours), our_queued = median_queued_ms(ours);
    std::printf("  gpuprim, %s: %.2f us (%.2fx), queued %.2f us (%.2fx), host enqueue %.2f us\n",
                how == gc::reduce_finish::polled ? "polled" : "ticket", our_ms * 1e3,
                cub_ms / our_ms, our_queued * 1e3, cub_queued / our_queued, host_enqueue_us(ours));
  };
  time_ours(std::integral_constant<gc::reduce_finish, gc::reduce_finish::polled>{});
  time_ours(std::integral_constant<gc::reduce_finish, gc::reduce_finish::ticket>{});
  free_device(in, out);
}

void launch_floor() {
  const auto empty = [] { empty_kernel<<<1, 32>>>(); };
  std::printf("launch floor: empty kernel %.2f us, queued %.2f us, host enqueue %.2f us\n",
              median_ms(empty) * 1e3, median_queued_ms(empty) * 1e3, host_enqueue_us(empty));
}

// --launch: what one enqueue costs by each launch path, for an empty
// kernel and for the library's 2^20 float sum (input rotated from memory,
// all ones so the sum is exact): the runtime's <<<>>>, the driver's
// cuLaunchKernel on a CUfunction looked up once, and (for the sum) the
// library's whole host path against a bare launch of the same kernel with
// its grid and status words prepared beforehand.
using launch_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, CUstream, void**, void**);

launch_fn driver_launch() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CHECK_CUDA(
      cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess) {
    std::printf("cuLaunchKernel not found\n");
    std::exit(1);
  }
  return reinterpret_cast<launch_fn>(fn);
}

CUfunction driver_function(const void* kernel) {
  cudaFunction_t f{};
  CHECK_CUDA(cudaGetFuncBySymbol(&f, kernel));
  return reinterpret_cast<CUfunction>(f);
}

__global__ void empty_kernel_with_params(const float*, std::uint64_t, float, float*, void*,
                                         unsigned*, unsigned long long*, void*, unsigned, float*) {}

__global__ void fill_ones(float* p, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = 1.0f;
}

void launch_paths() {
  const launch_fn launch = driver_launch();
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto report = [&](const char* what, auto f) {
    std::printf("  %-44s isolated %6.2f us, queued %6.2f us, host enqueue %5.2f us\n", what,
                median_ms(f, stream) * 1e3, median_queued_ms(f, stream) * 1e3, host_enqueue_us(f));
  };

  std::printf(
      "launch paths (stream created non-blocking, medians of 20 isolated / 20x10 queued), "
      "five interleaved rounds:\n");
  const CUfunction empty_f = driver_function(reinterpret_cast<const void*>(empty_kernel));
  const CUfunction empty_p_f =
      driver_function(reinterpret_cast<const void*>(empty_kernel_with_params));
  const float* null_in = nullptr;
  std::uint64_t one = 1;
  float zero = 0;
  float* null_out = nullptr;
  void* null_v = nullptr;
  unsigned* null_u = nullptr;
  unsigned long long* null_w = nullptr;
  unsigned first_epoch = 1;
  void* empty_args[] = {&null_in, &one,    &zero,   &null_out,    &null_v,
                        &null_u,  &null_w, &null_v, &first_epoch, &null_out};

  // The library's 2^20 float sum.
  const std::size_t n = std::size_t{1} << 20;
  const std::size_t copies = (std::size_t{160} << 20) / (n * sizeof(float)) + 1;
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, copies * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  fill_ones<<<1024, 256>>>(in, copies * n);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::size_t call = 0;
  const auto check = [&](const char* what) {
    CHECK_CUDA(cudaStreamSynchronize(stream));
    float got = 0;
    CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    if (got != float(n)) std::printf("  WRONG %s: %f\n", what, got);
  };
  using fetch_t = gp::detail::unary_fetch<gp::identity>;
  using status_t = gc::tile_lookback<float>;
  const auto kernel = gc::reduce_single_pass<256, 4, 4, true, float, float, gp::plus, fetch_t>;
  const unsigned blocks = 256;  // 2^20 / (256 threads x 4 loads x 4 floats)
  const gc::warp_tile_split split =
      gc::split_warp_tiles(n, n / 512, blocks * 8);  // one warp tile (512 floats) per warp
  unsigned long long* words;
  CHECK_CUDA(cudaMalloc(&words, blocks * sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(words, 0, blocks * sizeof(unsigned long long)));
  unsigned epoch = 0;
  const CUfunction sum_f = driver_function(reinterpret_cast<const void*>(kernel));

  // Host cost of each lookup the library's launch path makes per call:
  // median over 50 batches of 100 calls, per call.
  const auto per_call_ns = [](auto f) {
    std::vector<double> t;
    for (int b = 0; b < 50; ++b) {
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < 100; ++i)
        f();
      t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                      .count() /
                  100);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  volatile int sink = 0;
  std::printf(
      "host cost per call (ns): current_device %.0f, multiprocessor count %.0f, "
      "occupancy %.0f, lookback workspace %.0f, kernel_function %.0f\n",
      per_call_ns([&] { sink = gp::current_device(); }),
      per_call_ns([&] { sink = gc::current_multiprocessor_count(); }), per_call_ns([&] {
        sink = gc::occupancy_blocks_per_multiprocessor(reinterpret_cast<const void*>(kernel), 256);
      }),
      per_call_ns([&] { sink = gc::stream_lookback_workspace(stream, blocks, 0).epoch; }),
      per_call_ns(
          [&] { sink = gc::kernel_function(reinterpret_cast<const void*>(kernel)) != nullptr; }));

  for (int round = 0; round < 5; ++round) {
    std::printf(" round %d\n", round);
    report("empty kernel, <<<>>>", [&] { empty_kernel<<<1, 32, 0, stream>>>(); });
    report("empty kernel, cuLaunchKernel", [&] {
      launch(empty_f, 1, 1, 1, 32, 1, 1, 0, reinterpret_cast<CUstream>(stream), nullptr, nullptr);
    });
    report("empty kernel, 10 params, <<<>>>", [&] {
      empty_kernel_with_params<<<256, 256, 0, stream>>>(
          null_in, one, zero, null_out, null_v, null_u, null_w, null_v, first_epoch, null_out);
    });
    report("empty kernel, 10 params, cuLaunchKernel", [&] {
      launch(empty_p_f, 256, 1, 1, 256, 1, 1, 0, reinterpret_cast<CUstream>(stream), empty_args,
             nullptr);
    });
    report("sum 2^20, library host path", [&] {
      gc::launch_reduce_single_pass<4>(in + (call++ % copies) * n, n, out, 0.0f, gp::plus{},
                                       fetch_t{}, stream, gc::reduce_config{});
    });
    check("library");
    report("sum 2^20, bare <<<>>>", [&] {
      const status_t published{words, nullptr, ++epoch};
      kernel<<<blocks, 256, 0, stream>>>(in + (call++ % copies) * n, n, split, 0.0f, gp::plus{},
                                         fetch_t{}, nullptr, nullptr, published, out);
    });
    check("bare <<<>>>");
    report("sum 2^20, bare cuLaunchKernel", [&] {
      const float* p = in + (call++ % copies) * n;
      std::uint64_t count = n;
      float init = 0.0f;
      gp::plus op{};
      fetch_t fetch{};
      float* results = nullptr;
      unsigned* finished = nullptr;
      status_t published{words, nullptr, ++epoch};
      float* o = out;
      gc::warp_tile_split tiles = split;
      void* args[] = {&p, &count, &tiles, &init, &op, &fetch, &results, &finished, &published, &o};
      launch(sum_f, blocks, 1, 1, 256, 1, 1, 0, reinterpret_cast<CUstream>(stream), args, nullptr);
    });
    check("bare cuLaunchKernel");
  }
  free_device(words, in, out);
  CHECK_CUDA(cudaStreamDestroy(stream));
}

// --profile [LOG2N]: one gpuprim and one CUB float sum of 2^LOG2N
// elements (default 2^20), nothing else, for Nsight Compute.
void profile_once(int log2n) {
  const std::size_t n = std::size_t{1} << log2n;
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(float)));
  CHECK_CUDA(cudaMemset(in, 0, n * sizeof(float)));
  gc::launch_reduce_single_pass<4>(in, n, out, 0.0f, gp::plus{},
                                   gp::detail::unary_fetch<gp::identity>{}, nullptr,
                                   gc::reduce_config{});
  const cub_call cub_sum([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n);
  });
  cub_sum();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("profiled one gpuprim and one CUB float sum of 2^%d elements\n", log2n);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--profile") == 0) {
    profile_once(argc > 2 ? std::atoi(argv[2]) : 20);
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--launch") == 0) {
    launch_paths();
    return 0;
  }
  launch_floor();
  from_memory<float>(std::size_t{1} << 20);
  from_memory<double>(std::size_t{1} << 20);
  from_memory<double>(std::size_t{1} << 24);
  for (std::size_t n :
       {std::size_t{1} << 20, std::size_t{1} << 22, std::size_t{1} << 24, std::size_t{1} << 28})
    compare(n);
}
