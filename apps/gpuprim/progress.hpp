// Progress of long work on stderr, the rule `solve` and the host brute force
// of `closest-pair` keep: nothing for a command that ends within a second,
// then one line a second, "gpuprim convolve: filtering 900 Mpixels, 42%,
// 3.0 s" (the percentage where the work knows how far it is).
//
// main runs each command inside a progress_reporter, whose thread wakes
// once a second and prints the innermost progress_stage open at that
// moment. Long work names itself with a progress_stage (reading a file,
// decoding an image, filtering, writing) and, where it can, says how far it
// is with fraction(). No stage open, no line: `solve` prints its iterations
// itself. Without a reporter (the reader tests, the fuzzers) a stage does
// nothing. Lines go to stderr whether or not it is a terminal, as those of
// `solve` and `closest-pair` do; a command that takes less than a second,
// as every test does, prints none. Where no thread can be started (memory
// exhausted), the reporter is silent and the command runs on.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <thread>

namespace gpuprim::cli {

class progress_reporter {
 public:
  // `where` starts each line ("gpuprim convolve"); the first report comes
  // after `interval` seconds, then one every `interval` seconds.
  explicit progress_reporter(std::string where, double interval = 1.0);
  ~progress_reporter();
  progress_reporter(const progress_reporter&) = delete;
  progress_reporter& operator=(const progress_reporter&) = delete;

  struct state;

 private:
  std::unique_ptr<state> state_;
  std::thread thread_;
};

// Work that reports while it is open; stages nest (the innermost one is
// reported), and are opened and closed by one thread. fraction() may be
// called from any thread.
class progress_stage {
 public:
  explicit progress_stage(std::string what);
  ~progress_stage();
  progress_stage(const progress_stage&) = delete;
  progress_stage& operator=(const progress_stage&) = delete;

  // How much of the stage is done, 0 to 1.
  void fraction(double done);

 private:
  progress_reporter::state* state_ = nullptr;  // null without a reporter
  std::size_t depth_ = 0;                      // its place in the reporter's stack
};

}  // namespace gpuprim::cli
