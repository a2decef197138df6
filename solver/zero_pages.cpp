// Zeroed memory taken from the system a page at a time.
#include "zero_pages.h"

#if defined(__linux__) || defined(__APPLE__)
#include <sys/mman.h>
#define MARTIANDICE_MMAP 1
#endif

namespace martiandice::solver {
namespace {

constexpr std::size_t kMapped = std::size_t{1} << 20;  // smaller: calloc's

}  // namespace

void* AllocateZeroPages(std::size_t bytes) {
#ifdef MARTIANDICE_MMAP
  if (bytes >= kMapped) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
  }
#endif
  return std::calloc(bytes == 0 ? 1 : bytes, 1);
}

void FreeZeroPages(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
#ifdef MARTIANDICE_MMAP
  if (bytes >= kMapped) {
    munmap(p, bytes);
    return;
  }
#endif
  std::free(p);
}

}  // namespace martiandice::solver
