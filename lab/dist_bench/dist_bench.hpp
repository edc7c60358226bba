// `gpuprim bench dist`: the entry point, and the rows and tables shared by
// the MPI ranks' rows (dist_bench.cpp) and gp::multi_gpu's
// (dist_bench_multi_gpu.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprim::bench::dist {

// The sizes of `gpuprim bench dist` as given (N or 2^K; empty: the
// defaults): elements per GPU or rank of the weak-scaling rows, and in all
// of the strong-scaling rows.
struct size_options {
  std::string per_gpu, total;
};

// Runs the distributed benchmark under mpirun: host ranks, GPU ranks when
// a device is present, and gp::multi_gpu in a run of one process; rank 0
// prints the tables. `backend`: "" (every one), "host", "cuda" or
// "multi_gpu". Returns 0, or 1 when a run failed (one line on stderr).
// Throws std::invalid_argument for sizes that are not counts, and for a
// build without MPI.
int run(bool quick, const std::string& backend, const size_options& sizes);

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

// gp::multi_gpu's rows (dist_bench_multi_gpu.cpp): one per algorithm,
// scaling and GPU count (1, 2 and all); the sort's steps; the NCCL
// roofline of the same bytes.
struct multi_gpu_row {
  std::string algorithm, scaling;
  int gpus;
  std::uint64_t n;
  double seconds;
  double bytes;
  std::string check;
};
struct sort_split {
  std::string scaling;
  int gpus;
  std::uint64_t n;
  double total, sort, splitters, alltoall, merge, sent_bytes, imbalance;
};
struct roofline {
  std::string scaling;
  int gpus;
  double bytes_per_gpu, alltoall_sent, alltoall, allreduce;
};
struct multi_gpu_report {
  std::vector<multi_gpu_row> rows;
  std::vector<sort_split> sorts;
  std::vector<roofline> rooflines;
};

// gp::multi_gpu over the first 1, 2 and all `devices` GPUs of this
// process: weak (weak_n_per_device per GPU) and strong (strong_n in all)
// scaling, each time the median of `reps` runs. Progress on stderr.
multi_gpu_report multi_gpu_rows(int devices, std::uint64_t strong_n,
                                std::uint64_t weak_n_per_device, int reps);
// Its tables on stdout, with the efficiency columns.
void print_multi_gpu(const multi_gpu_report& report);

// A count given as N or 2^K (K <= 40), at least 1; `what` names the option
// in the std::invalid_argument thrown otherwise.
std::uint64_t parse_count(const std::string& text, const char* what);

}  // namespace gpuprim::bench::dist
