// The input of the table-reading fuzz targets (table_fuzz.cpp,
// certify_fuzz.cpp): a mode byte, then a policy table file. The mode says
// what is recomputed before the bytes reach the reader:
//   mode % 3 == 0  nothing (the checksums reject almost every mutation, so
//                  this mostly exercises the header checks);
//   mode % 3 == 1  both CRC-32s, so mutations reach the section parsing and
//                  the stored values;
//   mode % 3 == 2  the rules hash from the header's dice, bonus, target and
//                  players (the format's rules string), then both CRC-32s,
//                  so mutated rules reach the layout checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"
#include "table_builder.h"

namespace fuzz_input {

inline void RecomputeRulesHash(std::string& bytes) {
  namespace off = table_builder::offset;
  if (bytes.size() < 128) return;
  const std::string rules = absl::StrFormat(
      "martiandice-policy v2 dice=%d bonus=%d target=%d players=%d values-only "
      "ties=stop,rays,most-dice,human-cow-chicken",
      table_builder::GetU32(bytes, off::kDice), table_builder::GetU32(bytes, off::kBonus),
      table_builder::GetU32(bytes, off::kTarget), table_builder::GetU32(bytes, off::kPlayers));
  table_builder::PutU64(bytes, off::kRulesHash, table_builder::Fnv1a64(rules));
}

// The table file of a fuzz input (size >= 1), its mode applied.
inline std::string TableBytes(const std::uint8_t* data, std::size_t size) {
  const int mode = data[0] % 3;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (mode == 2) RecomputeRulesHash(bytes);
  if (mode >= 1 && bytes.size() >= 128) table_builder::RefreshChecksums(bytes);
  return bytes;
}

}  // namespace fuzz_input
