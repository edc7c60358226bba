// The programs that write the CLI tests' input files take one argument: the
// folder to write into.
#pragma once

#include <cstdio>
#include <filesystem>
#include <optional>

namespace gpuprim::test {

// The folder named by the only argument, created if needed; nothing (after
// a usage line on stderr) when the arguments are not one folder.
inline std::optional<std::filesystem::path> output_folder(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return std::nullopt;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace gpuprim::test
