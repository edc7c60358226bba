// Host-side services of the distributed part: CUDA-awareness of MPI, pinned
// staging buffers, the buffers GPU ranks keep, the GPU ranks' paths.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/core/error.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/dist/staging.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime.h>
#endif
#if defined(GPUPRIM_HAS_MPI)
#include <mpi.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_Query_cuda_support, where OpenMPI was built with it
#endif
#include "gpuprim/dist/mpi.hpp"
#include "gpuprim/dist/mpi_gpu.hpp"
#endif

namespace gpuprim {

#if defined(GPUPRIM_HAS_MPI)
bool mpi_cuda_aware() noexcept {
  if (const char* forced = std::getenv("GPUPRIM_MPI_CUDA_AWARE")) {
    return std::strcmp(forced, "1") == 0;
  }
#if GPUPRIM_HAS_CUDA && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  // Compiled with CUDA support; ask the library loaded at run time.
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

const char* path_name(mpi_gpu_path path) noexcept {
  switch (path) {
    case mpi_gpu_path::nccl:
      return "nccl";
    case mpi_gpu_path::cuda_aware:
      return "cuda-aware";
    default:
      return "staged";
  }
}
#endif

namespace detail {

#if GPUPRIM_HAS_CUDA
namespace {
void check(cudaError_t code, const char* call, const char* algorithm) {
  if (code != cudaSuccess) {
    throw cuda_error(static_cast<int>(code), call, algorithm, cudaGetErrorString(code));
  }
}
}  // namespace

pinned_buffer::pinned_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  check(cudaMallocHost(&data_, bytes), "cudaMallocHost", "gpuprim::mpi staging");
}

pinned_buffer::~pinned_buffer() {
  if (data_) cudaFreeHost(data_);
}

#else
pinned_buffer::pinned_buffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  data_ = std::malloc(bytes);
  if (!data_) throw std::bad_alloc();
}

pinned_buffer::~pinned_buffer() {
  std::free(data_);
}

// The GPU ranks' code is compiled in every build; without CUDA it is never
// reached, but it must link whatever the optimizer keeps (a Debug build).
template <class T, class Op>
void cuda_apply_carry(T*, std::size_t, T, Op, stream_t) {
  no_cuda_backend("inclusive_scan (mpi carry)");
}
GPUPRIM_DIST_CARRY_INSTANTIATIONS
#endif

// ---- buffers kept by GPU ranks --------------------------------------------

namespace {
struct kept_buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
};
std::mutex& kept_mutex() {
  static std::mutex m;
  return m;
}
}  // namespace

// Kept for the life of the process (never freed: CUDA releases them when
// the process ends, after which a destructor could not call it).
void* rank_workspace(int slot, std::size_t bytes, stream_t stream) {
#if GPUPRIM_HAS_CUDA
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice", "gpuprim::mpi workspace");
  const std::lock_guard lock(kept_mutex());
  static auto* kept = new std::map<std::pair<int, int>, kept_buffer>;
  kept_buffer& b = (*kept)[{device, slot}];
  if (b.bytes < bytes || (bytes > 0 && !b.data)) {
    synchronize(stream);  // work enqueued before may still read the old one
    device_free(b.data);
    b = {};
    b.data = device_allocate(bytes, "gpuprim::mpi workspace");
    b.bytes = bytes;
  }
  return b.data;
#else
  (void)slot;
  (void)bytes;
  (void)stream;
  no_cuda_backend("mpi (GPU ranks)");
  return nullptr;
#endif
}

void* rank_host_workspace(int slot, std::size_t bytes) {
  const std::lock_guard lock(kept_mutex());
  static auto* kept = new std::vector<pinned_buffer>(ws_slots);
  pinned_buffer& b = kept->at(slot);
  if (b.size_bytes() < bytes || !b.get<void>())
    b = pinned_buffer(std::max<std::size_t>(bytes, 4096));
  return b.get<void>();
}

#if !GPUPRIM_HAS_CUDA
template <class K>
void cuda_pick_samples(const K*, std::uint64_t, std::uint64_t, std::uint64_t, compared_bits<K>,
                       sort_rank_key*, std::uint64_t, stream_t) {
  no_cuda_backend("sort (distributed)");
}
template <class K>
void cuda_find_cuts(const sort_rank_key*, int, std::uint64_t, std::uint64_t, const K*,
                    std::uint64_t, std::uint64_t, compared_bits<K>, std::uint64_t*, stream_t) {
  no_cuda_backend("sort (distributed)");
}
template <class K, class W>
void cuda_merge_runs(const K*, const W*, std::uint64_t, const K*, const W*, std::uint64_t, K*, W*,
                     compared_bits<K>, stream_t) {
  no_cuda_backend("sort (distributed)");
}
void cuda_fill_random(std::uint32_t*, std::uint64_t, std::uint64_t, std::uint64_t, stream_t) {
  no_cuda_backend("bench dist");
}
void cuda_fill_random(float*, std::uint64_t, std::uint64_t, std::uint64_t, stream_t) {
  no_cuda_backend("bench dist");
}
GPUPRIM_DIST_SORT_INSTANTIATIONS
#endif

#if defined(GPUPRIM_HAS_MPI)
#if !defined(GPUPRIM_HAS_NCCL)
bool nccl_usable(MPI_Comm) {
  return false;
}
void nccl_allgather(MPI_Comm, void*, std::size_t, stream_t) {
  throw std::runtime_error("gpuprim::mpi: built without NCCL");
}
void nccl_alltoallv(MPI_Comm, const void*, const std::uint64_t*, const std::uint64_t*, void*,
                    const std::uint64_t*, const std::uint64_t*, std::size_t, stream_t) {
  throw std::runtime_error("gpuprim::mpi: built without NCCL");
}
void nccl_allreduce_sum(MPI_Comm, void*, std::size_t, int, stream_t) {
  throw std::runtime_error("gpuprim::mpi: built without NCCL");
}
#endif

int mpi_make_keyval(MPI_Comm_delete_attr_function* destroy) {
  int k = MPI_KEYVAL_INVALID;
  mpi_check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, destroy, &k, nullptr),
            "MPI_Comm_create_keyval");
  return k;
}

// ---- the GPU ranks' paths ------------------------------------------------

namespace {
int path_keyval() {
  static const int keyval = mpi_make_keyval([](MPI_Comm, int, void* value, void*) {
    delete static_cast<mpi_gpu_path*>(value);
    return MPI_SUCCESS;
  });
  return keyval;
}
}  // namespace

void mpi_gpu_group::allgather(const std::vector<void*>& buffers, std::size_t bytes) const {
  if (bytes == 0) return;
  char* b = static_cast<char*>(buffers[0]);
  if (path_ == mpi_gpu_path::nccl) {
    nccl_allgather(comm_, b, bytes, local_.stream);
    return;
  }
  const int count = mpi_count(bytes, "an allgather");
  synchronize();
  if (path_ == mpi_gpu_path::cuda_aware) {
    mpi_check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, count, MPI_BYTE, comm_),
              "MPI_Allgather");
    return;
  }
  auto* h = static_cast<char*>(rank_host_workspace(ws_samples, bytes * ranks_));
  copy_to_host(h + rank_ * bytes, b + rank_ * bytes, bytes, local_.stream);
  synchronize();
  mpi_check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, h, count, MPI_BYTE, comm_),
            "MPI_Allgather");
  copy_to_device(b, h, bytes * ranks_, local_.stream);
  synchronize();
}

void mpi_gpu_group::alltoallv(const std::vector<const void*>& sends,
                              const detail::rank_table& send_counts,
                              const detail::rank_table& send_offsets,
                              const std::vector<void*>& recvs,
                              const detail::rank_table& recv_counts,
                              const detail::rank_table& recv_offsets,
                              std::size_t element_bytes) const {
  const auto& sc = send_counts[0];
  const auto& so = send_offsets[0];
  const auto& rc = recv_counts[0];
  const auto& ro = recv_offsets[0];
  if (path_ == mpi_gpu_path::nccl) {
    nccl_alltoallv(comm_, sends[0], sc.data(), so.data(), recvs[0], rc.data(), ro.data(),
                   element_bytes, local_.stream);
    return;
  }
  const int p = ranks_;
  std::vector<int> isc(p), iso(p), irc(p), iro(p);
  std::uint64_t send_end = 0, recv_end = 0;
  for (int r = 0; r < p; ++r) {
    isc[r] = mpi_count(sc[r], "a sort piece");
    iso[r] = mpi_count(so[r], "a sort slice");
    irc[r] = mpi_count(rc[r], "a sort piece");
    iro[r] = mpi_count(ro[r], "a sort slice");
    if (sc[r]) send_end = std::max(send_end, so[r] + sc[r]);
    if (rc[r]) recv_end = std::max(recv_end, ro[r] + rc[r]);
  }
  const mpi_bytes_type type(element_bytes);
  synchronize();
  if (path_ == mpi_gpu_path::cuda_aware) {
    mpi_check(MPI_Alltoallv(sends[0], isc.data(), iso.data(), type.get(), recvs[0], irc.data(),
                            iro.data(), type.get(), comm_),
              "MPI_Alltoallv");
    return;
  }
  auto* hs = static_cast<char*>(rank_host_workspace(ws_sorted_keys, send_end * element_bytes));
  auto* hr = static_cast<char*>(rank_host_workspace(ws_received_keys, recv_end * element_bytes));
  copy_to_host(hs, sends[0], send_end * element_bytes, local_.stream);
  synchronize();
  mpi_check(MPI_Alltoallv(hs, isc.data(), iso.data(), type.get(), hr, irc.data(), iro.data(),
                          type.get(), comm_),
            "MPI_Alltoallv");
  copy_to_device(recvs[0], hr, recv_end * element_bytes, local_.stream);
  synchronize();
}

void mpi_gpu_group::allreduce_sum(void* buffer, std::size_t count, int counter_bytes) const {
  const MPI_Datatype type = counter_bytes == 4 ? MPI_UINT32_T : MPI_UINT64_T;
  const int n = mpi_count(count, "a histogram");
  if (path_ == mpi_gpu_path::nccl) {
    nccl_allreduce_sum(comm_, buffer, count, counter_bytes, local_.stream);
    synchronize();
    return;
  }
  synchronize();
  if (path_ == mpi_gpu_path::cuda_aware) {
    mpi_check(MPI_Allreduce(MPI_IN_PLACE, buffer, n, type, MPI_SUM, comm_), "MPI_Allreduce");
    return;
  }
  const std::size_t bytes = count * counter_bytes;
  void* h = rank_host_workspace(ws_small, bytes);
  copy_to_host(h, buffer, bytes, local_.stream);
  synchronize();
  mpi_check(MPI_Allreduce(MPI_IN_PLACE, h, n, type, MPI_SUM, comm_), "MPI_Allreduce");
  copy_to_device(buffer, h, bytes, local_.stream);
  synchronize();
}
#endif

}  // namespace detail
}  // namespace gpuprim

#if defined(GPUPRIM_HAS_MPI)
namespace gpuprim {
mpi_gpu_path gpu_path_of(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  detail::mpi_check(MPI_Comm_get_attr(comm, detail::path_keyval(), &value, &found),
                    "MPI_Comm_get_attr");
  if (found) return *static_cast<mpi_gpu_path*>(value);
  const char* asked_env = std::getenv("GPUPRIM_MPI_GPU_PATH");
  const std::string asked = asked_env ? asked_env : "";
  if (!asked.empty() && asked != "nccl" && asked != "cuda-aware" && asked != "staged") {
    throw std::invalid_argument("gpuprim::mpi: GPUPRIM_MPI_GPU_PATH=" + asked +
                                ": not nccl, cuda-aware or staged");
  }
  mpi_gpu_path path = mpi_gpu_path::staged;
  if ((asked.empty() || asked == "nccl") && detail::nccl_usable(comm)) {
    path = mpi_gpu_path::nccl;
  } else if (asked != "staged" && mpi_cuda_aware()) {
    path = mpi_gpu_path::cuda_aware;
  }
  detail::mpi_check(MPI_Comm_set_attr(comm, detail::path_keyval(), new mpi_gpu_path(path)),
                    "MPI_Comm_set_attr");
  return path;
}
}  // namespace gpuprim
#endif
