// The progress reporter of the command line (progress.hpp): one thread
// that sleeps on a condition variable until the next report is due.
#include "progress.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

namespace gpuprim::cli {

namespace {

using clock_type = std::chrono::steady_clock;

struct stage_entry {
  std::string what;
  double fraction = -1;  // < 0: not known
};

}  // namespace

// What the reporter's thread and the stages share, guarded by `lock`.
struct progress_reporter::state {
  std::mutex lock;
  std::condition_variable wake;
  bool stopping = false;
  std::vector<stage_entry> stages;  // innermost last
};

namespace {

// The reporter of the command that runs, if any (main runs one command).
std::atomic<progress_reporter::state*> active{nullptr};

void print_line(const std::string& where, const stage_entry& stage, double seconds) {
  if (stage.fraction >= 0) {
    std::fprintf(stderr, "%s: %s, %.0f%%, %.1f s\n", where.c_str(), stage.what.c_str(),
                 100.0 * stage.fraction, seconds);
  } else {
    std::fprintf(stderr, "%s: %s, %.1f s\n", where.c_str(), stage.what.c_str(), seconds);
  }
  std::fflush(stderr);
}

}  // namespace

progress_reporter::progress_reporter(std::string where, double interval)
    : state_(std::make_unique<state>()) {
  state* const shared = state_.get();
  const clock_type::time_point started = clock_type::now();
  auto report = [shared, where = std::move(where), interval, started] {
    double next = interval;  // seconds since the start
    std::unique_lock<std::mutex> guard(shared->lock);
    for (;;) {
      const auto due = started + std::chrono::duration_cast<clock_type::duration>(
                                     std::chrono::duration<double>(next));
      if (shared->wake.wait_until(guard, due, [&] { return shared->stopping; })) return;
      const double seconds = std::chrono::duration<double>(clock_type::now() - started).count();
      if (!shared->stages.empty()) print_line(where, shared->stages.back(), seconds);
      next = (std::floor(seconds / interval) + 1) * interval;
    }
  };
  try {
    thread_ = std::thread(std::move(report));
  } catch (const std::system_error&) {
    // No thread (no room for its stack when memory runs out): the command
    // runs without progress lines, and its stages do nothing.
    return;
  }
  active.store(shared);
}

progress_reporter::~progress_reporter() {
  active.store(nullptr);
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> guard(state_->lock);
    state_->stopping = true;
  }
  state_->wake.notify_all();
  thread_.join();
}

progress_stage::progress_stage(std::string what) : state_(active.load()) {
  if (!state_) return;
  const std::lock_guard<std::mutex> guard(state_->lock);
  depth_ = state_->stages.size();
  state_->stages.push_back({std::move(what)});
}

progress_stage::~progress_stage() {
  if (!state_) return;
  const std::lock_guard<std::mutex> guard(state_->lock);
  state_->stages.resize(depth_);
}

void progress_stage::fraction(double done) {
  if (!state_) return;
  const std::lock_guard<std::mutex> guard(state_->lock);
  state_->stages[depth_].fraction = done;
}

}  // namespace gpuprim::cli
