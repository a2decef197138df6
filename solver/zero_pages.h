// Value arrays whose memory is taken from the system only where written: the
// game solve's per-context values, of which a rank of a cluster writes only
// its share (level_schedule.h). Internal to the solver.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

namespace martiandice::solver {

// Zeroed memory of `bytes` bytes: from 1 MiB on, fresh pages mapped from the
// system (resident once written; calloc may reuse and clear freed heap
// memory instead), else calloc's. Null when refused.
void* AllocateZeroPages(std::size_t bytes);
void FreeZeroPages(void* p, std::size_t bytes) noexcept;

// An allocator of zeroed memory (AllocateZeroPages) whose default
// construction writes nothing, so that vector(n) stays all zero pages.
template <typename T>
struct ZeroPageAllocator {
  using value_type = T;
  ZeroPageAllocator() = default;
  template <typename U>
  ZeroPageAllocator(const ZeroPageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    if (void* p = AllocateZeroPages(n * sizeof(T))) return static_cast<T*>(p);
    throw std::bad_alloc();
  }
  void deallocate(T* p, std::size_t n) noexcept { FreeZeroPages(p, n * sizeof(T)); }
  // Default construction leaves calloc's zeros (no write, no page touched).
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <typename U>
  bool operator==(const ZeroPageAllocator<U>&) const noexcept {
    return true;
  }
};

// A vector of values made all zero by ValueVector(n), its pages untouched.
using ValueVector = std::vector<double, ZeroPageAllocator<double>>;

}  // namespace martiandice::solver
