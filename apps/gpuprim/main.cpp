#include <cstdio>
#include "gpuprim/core/runtime.hpp"
int main() {
  std::printf("devices: %d\n", gpuprim::cuda_device_count());
}
