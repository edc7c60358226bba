// `gpuprim bench dist`'s rows and table, shared by the MPI ranks' rows
// (dist_bench.cpp) and gp::multi_gpu's (dist_bench_multi_gpu.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprim::cli::dist_bench {

// Local work, waiting for the slowest rank (a barrier between the local
// work and the communication, so that the communication time is the
// messages' own), and communication.
struct split_time {
  double local = 0, comm = 0, wait = 0;
  double total() const { return local + comm + wait; }
};

// Each part's own median over the runs: on a loaded machine a rank
// descheduled in one run's collective would otherwise carry that run's
// noise into every column.
split_time median(const std::vector<split_time>& runs);

struct row {
  std::string algorithm, ranks_kind, scaling;
  int ranks;  // MPI ranks, or the devices of gp::multi_gpu
  std::uint64_t n;
  split_time t;
  double bytes;  // the fewest bytes the algorithm must read and write, all ranks
  double imbalance = -1;
  std::string check = "-";
};

// The Markdown table of `rows` on stdout.
void print_rows(const std::vector<row>& rows);

// gp::multi_gpu over the first 1, 2, ... `devices` GPUs of this process:
// the same four algorithms, strong (strong_n elements in all) and weak
// (weak_n_per_device per device) scaling. Each part is the median over
// `reps` runs; there is no wait column (one process: the local time runs
// until the slowest device is done). Progress on stderr.
std::vector<row> multi_gpu_rows(int devices, std::uint64_t strong_n,
                                std::uint64_t weak_n_per_device, int reps);

}  // namespace gpuprim::cli::dist_bench
