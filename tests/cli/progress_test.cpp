// The command line's progress lines (apps/gpuprim/progress.hpp): silent for
// work shorter than the interval, then the innermost open stage, with its
// percentage when it knows one, on stderr once per interval.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "apps/gpuprim/progress.hpp"

namespace cli = gpuprim::cli;

namespace {

void wait(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
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
