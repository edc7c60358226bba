// CUDA runtime services behind gpuprim/core/*.hpp (built when CUDA is on).
#include <cuda.h>  // driver API types; cuLaunchKernel itself is found at run time
#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/workspace.cuh"

namespace gpuprim {
namespace detail {

void throw_cuda_error(cudaError_t code, const char* call, const char* algorithm,
                      std::size_t bytes_requested) {
  if (code == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear the (non-sticky) error
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw out_of_memory(bytes_requested, free_bytes, algorithm);
  }
  throw cuda_error(static_cast<int>(code), call, algorithm, cudaGetErrorString(code));
}

void no_cuda_backend(const char* algorithm) {
  throw cuda_error(-1, algorithm, algorithm, "not available (unreachable in a CUDA build)");
}

void* device_allocate(std::size_t bytes, const char* algorithm) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t code = cudaMalloc(&p, bytes);
  if (code != cudaSuccess) throw_cuda_error(code, "cudaMalloc", algorithm, bytes);
  return p;
}

void device_free(void* ptr) noexcept {
  if (ptr) cudaFree(ptr);
}

void copy_to_device(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  if (bytes == 0) return;
  GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "copy");
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  if (bytes == 0) return;
  GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, stream), "copy");
}

void copy_device_to_device(void* dst, const void* src, std::size_t bytes, stream_t stream) {
  if (bytes == 0) return;
  GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream), "copy");
}

void fill_bytes(void* dst, int value, std::size_t bytes, stream_t stream) {
  if (bytes == 0) return;
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, stream), "fill");
}

}  // namespace detail

int cuda_device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

void synchronize(stream_t stream) {
  GPUPRIM_CUDA_CHECK(cudaStreamSynchronize(stream), "synchronize");
}

int current_device() {
  int device = 0;
  GPUPRIM_CUDA_CHECK(cudaGetDevice(&device), "current_device");
  return device;
}

device_info get_device_info(int device) {
  if (device < 0) device = current_device();
  cudaDeviceProp p{};
  GPUPRIM_CUDA_CHECK(cudaGetDeviceProperties(&p, device), "device_info");
  device_info info;
  info.ordinal = device;
  info.name = p.name;
  info.compute_capability_major = p.major;
  info.compute_capability_minor = p.minor;
  info.multiprocessor_count = p.multiProcessorCount;
  info.max_threads_per_multiprocessor = p.maxThreadsPerMultiProcessor;
  info.global_memory_bytes = p.totalGlobalMem;
  info.l2_cache_bytes = static_cast<std::size_t>(p.l2CacheSize);
  info.shared_memory_per_block = p.sharedMemPerBlock;
  info.shared_memory_per_block_optin = p.sharedMemPerBlockOptin;
  info.shared_memory_per_multiprocessor = p.sharedMemPerMultiprocessor;
  // CUDA 13 dropped the clock fields from cudaDeviceProp; ask for them.
  int clock_khz = 0, bus_width = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device);
  cudaDeviceGetAttribute(&bus_width, cudaDevAttrGlobalMemoryBusWidth, device);
  cudaGetLastError();
  info.memory_clock_khz = clock_khz;
  info.memory_bus_width_bits = bus_width;
  info.theoretical_bandwidth_gbs = 2.0 * clock_khz * 1e3 * (bus_width / 8.0) / 1e9;
  return info;
}

namespace cuda_impl {

int current_multiprocessor_count() {
  static std::array<std::atomic<int>, 64> cache{};
  const int device = current_device();
  if (device < 0 || device >= static_cast<int>(cache.size())) {
    return get_device_info(device).multiprocessor_count;
  }
  int count = cache[device].load(std::memory_order_relaxed);
  if (count == 0) {
    GPUPRIM_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device),
                       "device_info");
    cache[device].store(count, std::memory_order_relaxed);
  }
  return count;
}

int occupancy_blocks_per_multiprocessor(const void* kernel, int threads) {
  // Per thread, as kernel_function's handles: no lock on the launch path.
  struct key {
    int device;
    int threads;
    const void* kernel;
    bool operator<(const key& o) const {
      return std::tie(device, threads, kernel) < std::tie(o.device, o.threads, o.kernel);
    }
  };
  thread_local std::map<key, int> cache;
  const key k{current_device(), threads, kernel};
  if (const auto it = cache.find(k); it != cache.end()) return it->second;
  int blocks = 0;
  const cudaError_t code =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0);
  if (code != cudaSuccess) {
    detail::throw_cuda_error(code, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "launch");
  }
  blocks = blocks > 0 ? blocks : 1;
  cache.emplace(k, blocks);
  return blocks;
}

namespace {

using launch_kernel_fn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned, CUstream, void**, void**);

// The driver's cuLaunchKernel, through the runtime's entry-point query, so
// the library needs no link against libcuda.
launch_kernel_fn driver_launch_kernel() {
  static const launch_kernel_fn launch = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    GPUPRIM_CUDA_CHECK(
        cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found),
        "launch");
    if (found != cudaDriverEntryPointSuccess || fn == nullptr) {
      detail::throw_cuda_error(cudaErrorSymbolNotFound, "cudaGetDriverEntryPointByVersion",
                               "launch");
    }
    return reinterpret_cast<launch_kernel_fn>(fn);
  }();
  return launch;
}

struct kernel_key {
  int device;
  const void* kernel;
  bool operator==(const kernel_key&) const = default;
};
struct kernel_key_hash {
  std::size_t operator()(const kernel_key& k) const noexcept {
    return std::hash<const void*>{}(k.kernel) ^ static_cast<std::size_t>(k.device);
  }
};

}  // namespace

cudaFunction_t kernel_function(const void* kernel) {
  // Per thread: the lookup also makes the device's context current on a
  // thread that has not used it yet, which the driver launch needs.
  thread_local std::unordered_map<kernel_key, cudaFunction_t, kernel_key_hash> functions;
  const kernel_key key{current_device(), kernel};
  if (const auto it = functions.find(key); it != functions.end()) return it->second;
  cudaFunction_t function = nullptr;
  GPUPRIM_CUDA_CHECK(cudaGetFuncBySymbol(&function, kernel), "launch");
  functions.emplace(key, function);
  return function;
}

void launch_function(cudaFunction_t function, const launch_shape& shape, void** args,
                     const char* kernel_name, const char* algorithm) {
  const CUresult code = driver_launch_kernel()(
      reinterpret_cast<CUfunction>(function), shape.grid.x, shape.grid.y, shape.grid.z,
      shape.block.x, shape.block.y, shape.block.z, shape.shared_bytes,
      reinterpret_cast<CUstream>(shape.stream), args, nullptr);
  // The runtime's error codes share the driver's numbers.
  if (code != CUDA_SUCCESS) {
    detail::throw_cuda_error(static_cast<cudaError_t>(code), kernel_name, algorithm);
  }
}

namespace {

// The kept buffers of the stream workspaces below: allocated when they
// grow, the old one freed once the kernels already enqueued on its stream
// (which may still use it) are done.
//
// Under CUDA-graph capture the buffers work as outside it: the allocation
// is made outside the graph (cudaMalloc in relaxed capture mode, so a
// global-mode capture of another thread or of the caller's framework does
// not refuse it) and outlives every replay; a buffer that a capture has
// used is never freed (a graph may still replay with it), only retired.
bool stream_capturing(stream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  const cudaError_t code = cudaStreamIsCapturing(stream, &status);
  if (code != cudaSuccess) {
    cudaGetLastError();  // not sticky
    return code == cudaErrorStreamCaptureImplicit;
  }
  return status != cudaStreamCaptureStatusNone;
}
// `bytes` of device memory whose first `zeroed_bytes` are zero for every
// kernel later enqueued on `stream`.
void* allocate_or_throw(std::size_t bytes, stream_t stream, std::size_t zeroed_bytes,
                        const char* what) {
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  GPUPRIM_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode), what);
  void* data = nullptr;
  cudaError_t code = cudaMalloc(&data, bytes);
  cudaThreadExchangeStreamCaptureMode(&mode);  // the caller's mode back
  if (code != cudaSuccess) detail::throw_cuda_error(code, "cudaMalloc", what, bytes);
  // Stream-ordered: the zeroing precedes every kernel later enqueued here.
  code = cudaMemsetAsync(data, 0, zeroed_bytes, stream);
  if (code != cudaSuccess) {
    cudaFree(data);
    detail::throw_cuda_error(code, "cudaMemsetAsync", what);
  }
  return data;
}
// Frees `old` once the stream is done with it, unless a graph may hold it
// (`in_a_graph`: a capture used it or is under way); on an error frees
// `grown` (the buffer that was to replace it) before throwing.
void retire_buffer(void* old, bool in_a_graph, void* grown, stream_t stream, const char* what) {
  if (!old || in_a_graph) return;
  const cudaError_t code = cudaStreamSynchronize(stream);
  if (code != cudaSuccess) {
    cudaFree(grown);
    detail::throw_cuda_error(code, "cudaStreamSynchronize", what);
  }
  cudaFree(old);
}

// One thread's workspaces, per (device, stream). Per thread and not per
// stream alone, because several threads may enqueue on one stream handle:
// the legacy default stream (every framework's default), or
// cudaStreamPerThread, one handle naming a different stream on each
// thread. A call that keeps data in its workspace from one kernel to the
// next (segmented reduce's parts) must not find another thread's kernel
// between the two, writing the same memory; and a buffer one thread has
// just been handed must not be freed by another growing it. Only the owning
// thread reads or grows its entries: no lock, one thread-local lookup per
// call (a compare when the stream is the thread's last one).
class thread_workspaces {
 public:
  struct plain {
    void* data = nullptr;
    std::size_t scratch_bytes = 0;
    bool captured = false;        // used by a captured graph
    std::size_t zero_before = 0;  // bytes still to zero for calls outside a graph
  };
  struct lookback {
    void* data = nullptr;
    std::size_t tiles = 0;
    std::size_t value_bytes = 0;
    unsigned epoch = 0;
    bool captured = false;        // used by a captured graph
    std::size_t zero_before = 0;  // bytes still to zero for calls outside a graph
  };
  struct slot {
    plain single;
    lookback status;
  };

  thread_workspaces() = default;
  thread_workspaces(const thread_workspaces&) = delete;
  thread_workspaces& operator=(const thread_workspaces&) = delete;

  slot& at(int device, stream_t stream) {
    if (last_ && last_device_ == device && last_stream_ == stream) return *last_;
    slot& s = slots_[{device, stream}];  // map nodes stay put
    last_ = &s;
    last_device_ = device;
    last_stream_ = stream;
    return s;
  }

  // When the thread ends. cudaFree waits for work still using a buffer; a
  // buffer a graph has used stays (the graph may outlive the thread), and
  // on an error (the runtime shutting down, another thread capturing a
  // graph) the buffer is left to the process's end.
  ~thread_workspaces() {
    if (slots_.empty()) return;
    for (auto& [key, s] : slots_) {
      if (cudaSetDevice(key.first) != cudaSuccess) continue;
      if (s.single.data && !s.single.captured) cudaFree(s.single.data);
      if (s.status.data && !s.status.captured) cudaFree(s.status.data);
    }
    cudaGetLastError();
  }

 private:
  std::map<std::pair<int, stream_t>, slot> slots_;
  slot* last_ = nullptr;
  int last_device_ = -1;
  stream_t last_stream_ = nullptr;
};

thread_local thread_workspaces this_thread_workspaces;

// A buffer allocated while its stream was being captured was zeroed by a
// memset node of that graph only: the first call outside a capture zeroes
// it in the stream's order.
template <class Entry>
void zero_outside_graphs(Entry& e, bool capturing, stream_t stream, const char* what) {
  if (e.zero_before == 0 || capturing) return;
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(e.data, 0, e.zero_before, stream), what);
  e.zero_before = 0;
}

}  // namespace

workspace stream_workspace_of(stream_t stream, std::size_t scratch_bytes) {
  constexpr std::size_t counter_bytes = 256;  // keeps the scratch area 256-byte aligned
  thread_workspaces::plain& e = this_thread_workspaces.at(current_device(), stream).single;
  const bool capturing = stream_capturing(stream);
  if (!e.data || e.scratch_bytes < scratch_bytes) {
    const std::size_t grown = std::max<std::size_t>(scratch_bytes, 2 * e.scratch_bytes);
    void* data = allocate_or_throw(counter_bytes + grown, stream, counter_bytes, "workspace");
    retire_buffer(e.data, e.captured || capturing, data, stream, "workspace");
    e = {data, grown};
    if (capturing) e.zero_before = counter_bytes;
  }
  zero_outside_graphs(e, capturing, stream, "workspace");
  // The kernels leave the counter zero, so a replay finds it as they left it.
  e.captured = e.captured || capturing;
  return {static_cast<unsigned*>(e.data), static_cast<char*>(e.data) + counter_bytes};
}

lookback_workspace stream_lookback_workspace_of(stream_t stream, std::size_t tiles,
                                                std::size_t value_bytes_per_tile) {
  thread_workspaces::lookback& e = this_thread_workspaces.at(current_device(), stream).status;
  const bool capturing = stream_capturing(stream);
  tiles = std::max<std::size_t>(tiles, 1);
  const std::size_t value_bytes = tiles * value_bytes_per_tile;
  if (!e.data || e.tiles < tiles || e.value_bytes < value_bytes) {
    const std::size_t grown_tiles = std::max(tiles, 2 * e.tiles);
    const std::size_t grown_values = std::max(value_bytes, 2 * e.value_bytes);
    const std::size_t flag_bytes = align_up(grown_tiles * sizeof(unsigned long long), 256);
    void* data =
        allocate_or_throw(flag_bytes + grown_values, stream, flag_bytes, "lookback workspace");
    retire_buffer(e.data, e.captured || capturing, data, stream, "lookback workspace");
    e.data = data;
    e.tiles = grown_tiles;
    e.value_bytes = grown_values;
    if (capturing) e.zero_before = flag_bytes;
  }
  zero_outside_graphs(e, capturing, stream, "lookback workspace");
  const std::size_t flag_bytes = align_up(e.tiles * sizeof(unsigned long long), 256);
  if (capturing) {
    // The epoch is a kernel argument, fixed in the graph: every replay
    // would find the flags its previous replay left with that epoch as if
    // they were its own. So the graph zeroes the flags of its tiles first.
    e.captured = true;
    GPUPRIM_CUDA_CHECK(cudaMemsetAsync(e.data, 0, tiles * sizeof(unsigned long long), stream),
                       "lookback workspace");
  }
  if (++e.epoch == (1u << 29)) {
    // Wrapped: flags of epoch 1 may still lie in slots no call has reached since.
    GPUPRIM_CUDA_CHECK(cudaMemsetAsync(e.data, 0, flag_bytes, stream), "lookback workspace");
    e.epoch = 1;
  }
  return {static_cast<unsigned long long*>(e.data), static_cast<char*>(e.data) + flag_bytes,
          e.epoch};
}

}  // namespace cuda_impl

// ---- scratch memory ------------------------------------------------------

namespace {

class stream_ordered_pool final : public memory_resource {
 public:
  void* allocate(std::size_t bytes, stream_t stream) override {
    keep_freed_memory_cached();
    void* p = nullptr;
    const cudaError_t code = cudaMallocAsync(&p, bytes, stream);
    if (code != cudaSuccess) detail::throw_cuda_error(code, "cudaMallocAsync", "scratch", bytes);
    return p;
  }
  void deallocate(void* ptr, std::size_t, stream_t stream) noexcept override {
    if (ptr) cudaFreeAsync(ptr, stream);
  }

 private:
  // By default the pool returns freed memory to the driver at every
  // synchronization; an unbounded threshold keeps it for the next call.
  void keep_freed_memory_cached() {
    const int device = current_device();
    if (device < 0 || device >= 64) return;
    std::uint64_t bit = std::uint64_t{1} << device;
    if (configured_.load(std::memory_order_relaxed) & bit) return;
    std::lock_guard lock(mutex_);
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
      std::uint64_t threshold = std::numeric_limits<std::uint64_t>::max();
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
    cudaGetLastError();
    configured_.fetch_or(bit, std::memory_order_relaxed);
  }

  std::atomic<std::uint64_t> configured_{0};
  std::mutex mutex_;
};

std::atomic<memory_resource*> current_resource{nullptr};

}  // namespace

memory_resource* default_scratch_resource() noexcept {
  static stream_ordered_pool pool;
  return &pool;
}

memory_resource* get_scratch_resource() noexcept {
  memory_resource* r = current_resource.load(std::memory_order_acquire);
  return r ? r : default_scratch_resource();
}

memory_resource* set_scratch_resource(memory_resource* resource) noexcept {
  memory_resource* previous = current_resource.exchange(resource, std::memory_order_acq_rel);
  return previous ? previous : default_scratch_resource();
}

}  // namespace gpuprim
