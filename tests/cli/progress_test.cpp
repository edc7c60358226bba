// The command line's progress lines (apps/gpuprim/progress.hpp): silent for
// work shorter than the interval, then the innermost open stage, with its
// percentage when it knows one, on stderr once per interval.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>
#include <thread>

#include "apps/gpuprim/progress.hpp"

namespace cli = gpuprim::cli;

namespace {

void wait(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Caps this process's address space a little above what it maps now, so
// that a thread's stack (8 MiB) cannot be mapped.
bool leave_no_room_for_a_thread() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return false;
  unsigned long pages = 0;
  const bool read = std::fscanf(f, "%lu", &pages) == 1;
  std::fclose(f);
  if (!read) return false;
  const rlim_t bytes = static_cast<rlim_t>(pages) * sysconf(_SC_PAGE_SIZE) + (1 << 20);
  const rlimit limit{bytes, bytes};
  return setrlimit(RLIMIT_AS, &limit) == 0;
}

}  // namespace

TEST(progress, work_shorter_than_the_interval_prints_nothing) {
  testing::internal::CaptureStderr();
  {
    const cli::progress_reporter reporter("gpuprim test", 30.0);
    const cli::progress_stage stage("reading a.png");
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(progress, long_work_reports_its_stage_and_fraction) {
  testing::internal::CaptureStderr();
  {
    const cli::progress_reporter reporter("gpuprim test", 0.05);
    cli::progress_stage stage("decoding a.png");
    stage.fraction(0.25);
    wait(0.6);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("gpuprim test: decoding a.png, 25%, ", 0), 0u) << err;
  // One line per report, each "<where>: <stage>, <percent>, <seconds> s".
  EXPECT_NE(err.find(" s\ngpuprim test: decoding a.png, 25%, "), std::string::npos) << err;
}

TEST(progress, the_innermost_open_stage_is_reported) {
  testing::internal::CaptureStderr();
  {
    const cli::progress_reporter reporter("gpuprim test", 0.05);
    const cli::progress_stage outer("filtering 900 Mpixels");
    {
      const cli::progress_stage inner("writing b.png");
      wait(0.4);
    }
    testing::internal::GetCapturedStderr();  // the inner stage's lines
    testing::internal::CaptureStderr();
    wait(0.4);
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("gpuprim test: filtering 900 Mpixels, "), std::string::npos) << err;
  EXPECT_EQ(err.find("writing"), std::string::npos) << err;
  EXPECT_EQ(err.find('%'), std::string::npos) << err;  // no fraction given
}

TEST(progress, no_open_stage_no_line) {
  testing::internal::CaptureStderr();
  {
    const cli::progress_reporter reporter("gpuprim test", 0.05);
    wait(0.3);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(progress, a_stage_without_a_reporter_does_nothing) {
  testing::internal::CaptureStderr();
  {
    cli::progress_stage stage("reading a.npy");
    stage.fraction(0.5);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// Out of memory, the reporter cannot start its thread: the command runs on
// without progress lines, its stages doing nothing.
TEST(progress, no_room_for_the_thread_runs_on_silently) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        if (!leave_no_room_for_a_thread()) std::_Exit(3);
        bool started = true;
        try {
          std::thread probe([] {});
          probe.join();
        } catch (const std::system_error&) {
          started = false;
        }
        if (started) std::_Exit(4);  // the limit did not bite: nothing tested
        {
          const cli::progress_reporter reporter("gpuprim test", 0.01);
          cli::progress_stage stage("reading a.png");
          stage.fraction(0.5);
        }
        std::_Exit(0);
      },
      testing::ExitedWithCode(0), "");
}
