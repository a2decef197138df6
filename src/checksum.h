// Internal: the checksums of the policy table format and of the solver's
// checkpoints: CRC-32 (IEEE 802.3, as zlib's crc32) and FNV-1a 64.
#pragma once

#include <cstdint>
#include <string_view>

namespace martiandice::internal {

// CRC-32 of `bytes`, continuing from `crc` (Crc32(a + b) == Crc32(b, Crc32(a))).
// Uses carry-less multiplication (PCLMULQDQ folding) on x86-64 CPUs that have
// it, else Crc32Portable.
std::uint32_t Crc32(std::string_view bytes, std::uint32_t crc = 0);
// The same, table-driven slicing-by-16: portable C++, any host.
std::uint32_t Crc32Portable(std::string_view bytes, std::uint32_t crc = 0);
// The same, one table lookup per byte: the plain reference the others are tested against.
std::uint32_t Crc32Bytewise(std::string_view bytes, std::uint32_t crc = 0);
// What Crc32 runs on this CPU: "pclmulqdq folding" or "slicing-by-16".
const char* Crc32Implementation();

// FNV-1a 64 of `bytes` (offset basis 14695981039346656037, prime 1099511628211).
std::uint64_t Fnv1a64(std::string_view bytes);

}  // namespace martiandice::internal
