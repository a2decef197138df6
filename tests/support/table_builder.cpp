// Test helper: writes policy table files from docs/FORMAT.md (see table_builder.h).
#include "table_builder.h"

#include <algorithm>
#include <array>
#include <bit>
#include <fstream>

namespace table_builder {
namespace {

// splitmix64: a small deterministic generator.
struct Random {
  std::uint64_t state;
  std::uint64_t Next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int Below(int n) { return static_cast<int>(Next() % static_cast<std::uint64_t>(n)); }
};

std::uint64_t Mix(std::uint64_t a, std::uint64_t b) {
  Random r{a * 0x100000001B3ull ^ b};
  return r.Next();
}

// The sizes of a version 1 file's sections.
struct Layout {
  std::uint32_t version;
  std::string rules_string;
  std::uint64_t state_count, block_count, record_size;
};

// The fields every version shares: magic, version, header size, rules,
// players, M, tie tolerance exponent, error bound.
void PutCommonFields(const TableSpec& spec, std::uint32_t version, std::string& bytes) {
  bytes.replace(0, 8, "MDPOLICY");
  const std::uint32_t u32_fields[][2] = {
      {offset::kVersion, version},
      {offset::kHeaderSize, 128},
      {offset::kDice, static_cast<std::uint32_t>(spec.rules.dice)},
      {offset::kBonus, static_cast<std::uint32_t>(spec.rules.bonus)},
      {offset::kTarget, static_cast<std::uint32_t>(spec.rules.target)},
      {offset::kPlayers, static_cast<std::uint32_t>(spec.players)},
      {offset::kMaxTurnScore, static_cast<std::uint32_t>(table_builder::MaxTurnScore(spec.rules))},
      {offset::kTieTolerance, 12}};
  for (const auto& [at, value] : u32_fields) PutU32(bytes, at, value);
  PutF64(bytes, offset::kErrorBound, spec.error_bound);
}

// The header of a version 1 `spec` with `layout` (checksums left 0) and room for the sections.
std::string Version1Header(const TableSpec& spec, const Layout& layout) {
  const std::uint64_t c = static_cast<std::uint64_t>(ContextCount(spec.rules, spec.players));
  const std::uint64_t contexts_size = c * layout.record_size;
  const std::uint64_t states_size = layout.state_count * 8;
  const std::uint64_t rolls_size = layout.block_count * layout.state_count * 8;
  std::string bytes(128 + contexts_size + states_size + rolls_size, '\0');
  PutCommonFields(spec, layout.version, bytes);
  PutU32(bytes, v1_offset::kStateCount, static_cast<std::uint32_t>(layout.state_count));
  PutU32(bytes, v1_offset::kContextCount, static_cast<std::uint32_t>(c));
  PutU32(bytes, v1_offset::kBlockCount, static_cast<std::uint32_t>(layout.block_count));
  PutU64(bytes, offset::kRulesHash, Fnv1a64(layout.rules_string));
  PutU64(bytes, offset::kContextsOffset, 128);
  PutU64(bytes, offset::kContextsSize, contexts_size);
  PutU64(bytes, v1_offset::kStatesOffset, 128 + contexts_size);
  PutU64(bytes, v1_offset::kStatesSize, states_size);
  PutU64(bytes, v1_offset::kRollsOffset, 128 + contexts_size + states_size);
  PutU64(bytes, v1_offset::kRollsSize, rolls_size);
  return bytes;
}

// Every context's probabilities, each record `record_size` bytes from the last.
void PutContexts(const TableSpec& spec, std::uint64_t record_size, std::string& bytes) {
  ForEachContext(spec.rules, spec.players,
                 [&](std::int64_t index, int mover, const std::vector<int>& scores) {
                   const std::vector<double> win = spec.win(mover, scores);
                   for (int j = 0; j < spec.players; ++j) {
                     PutF64(bytes, 128 + index * record_size + 8 * j, win[j]);
                   }
                 });
}

// Version 1's STATES list: the canonical positions (t, r, e0 >= e1 >= e2) with
// dice left, a ray or earthling set aside, and no more tanks than rays could
// still match, in increasing lexicographic order, with their dice left.
std::vector<std::array<int, 6>> Version1States(int dice) {
  std::vector<std::array<int, 6>> states;
  for (int t = 0; t <= dice; ++t) {
    for (int r = 0; r <= dice; ++r) {
      for (int e0 = 0; e0 <= dice; ++e0) {
        for (int e1 = 0; e1 <= e0; ++e1) {
          for (int e2 = 0; e2 <= e1; ++e2) {
            const int left = dice - t - r - e0 - e1 - e2;
            if (left > 0 && r + e0 >= 1 && t <= r + left)
              states.push_back({t, r, e0, e1, e2, left});
          }
        }
      }
    }
  }
  return states;
}

}  // namespace

std::uint32_t Crc32(const std::string& bytes, size_t begin, size_t end) {
  // Bit by bit, unlike the library's table-driven version.
  std::uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = begin; i < end; ++i) {
    crc ^= static_cast<std::uint8_t>(bytes[i]);
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::uint64_t Fnv1a64(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::string RulesString(const martiandice::Rules& rules, int players) {
  return "martiandice-policy v2 dice=" + std::to_string(rules.dice) +
         " bonus=" + std::to_string(rules.bonus) + " target=" + std::to_string(rules.target) +
         " players=" + std::to_string(players) +
         " values-only ties=stop,rays,most-dice,human-cow-chicken";
}

int MaxTurnScore(const martiandice::Rules& rules) {
  return rules.dice + (rules.dice >= 3 ? rules.bonus : 0);
}

std::int64_t ContextCount(const martiandice::Rules& rules, int players) {
  std::int64_t total = 0;
  ForEachContext(rules, players, [&](std::int64_t, int, const std::vector<int>&) { ++total; });
  return total;
}

std::int64_t ContextIndex(const martiandice::Rules& rules, int players, int mover,
                          const std::vector<int>& scores) {
  const std::int64_t t = rules.target, a = rules.target + table_builder::MaxTurnScore(rules);
  std::int64_t offset = 0;
  for (int i = 0; i < mover; ++i) {
    std::int64_t size = 1;
    for (int j = 0; j < players; ++j) size *= j < i ? a : t;
    offset += size;
  }
  std::int64_t index = 0;
  for (int j = 0; j < players; ++j) index = index * (j < mover ? a : t) + scores[j];
  return offset + index;
}

int DecodeContext(const martiandice::Rules& rules, int players, std::int64_t index,
                  std::vector<int>& scores) {
  const std::int64_t t = rules.target, a = rules.target + table_builder::MaxTurnScore(rules);
  int mover = 0;
  for (;; ++mover) {
    std::int64_t size = 1;
    for (int j = 0; j < players; ++j) size *= j < mover ? a : t;
    if (index < size || mover == players - 1) break;
    index -= size;
  }
  scores.assign(players, 0);
  for (int j = players - 1; j >= 0; --j) {  // mixed radix, the last seat least significant
    const std::int64_t radix = j < mover ? a : t;
    scores[j] = static_cast<int>(index % radix);
    index /= radix;
  }
  return mover;
}

void ForEachContext(const martiandice::Rules& rules, int players,
                    const std::function<void(std::int64_t, int, const std::vector<int>&)>& fn) {
  const int t = rules.target, a = rules.target + table_builder::MaxTurnScore(rules);
  std::int64_t index = 0;
  for (int mover = 0; mover < players; ++mover) {
    std::vector<int> scores(players, 0);
    while (true) {
      fn(index++, mover, scores);
      int j = players - 1;  // odometer, last seat fastest
      while (j >= 0 && ++scores[j] == (j < mover ? a : t)) scores[j--] = 0;
      if (j < 0) break;
    }
  }
}

void PutU32(std::string& bytes, size_t at, std::uint32_t value) {
  for (int k = 0; k < 4; ++k) bytes[at + k] = static_cast<char>((value >> (8 * k)) & 0xFF);
}
void PutU64(std::string& bytes, size_t at, std::uint64_t value) {
  for (int k = 0; k < 8; ++k) bytes[at + k] = static_cast<char>((value >> (8 * k)) & 0xFF);
}
void PutF64(std::string& bytes, size_t at, double value) {
  PutU64(bytes, at, std::bit_cast<std::uint64_t>(value));
}
std::uint32_t GetU32(const std::string& bytes, size_t at) {
  std::uint32_t v = 0;
  for (int k = 0; k < 4; ++k)
    v |= std::uint32_t{static_cast<std::uint8_t>(bytes[at + k])} << (8 * k);
  return v;
}
std::uint64_t GetU64(const std::string& bytes, size_t at) {
  std::uint64_t v = 0;
  for (int k = 0; k < 8; ++k)
    v |= std::uint64_t{static_cast<std::uint8_t>(bytes[at + k])} << (8 * k);
  return v;
}
double GetF64(const std::string& bytes, size_t at) {
  return std::bit_cast<double>(GetU64(bytes, at));
}

void RefreshChecksums(std::string& bytes) {
  if (bytes.size() < 128) return;
  if (GetU32(bytes, offset::kVersion) == 1) {
    PutU32(bytes, v1_offset::kPayloadCrc, Crc32(bytes, 128, bytes.size()));
    PutU32(bytes, offset::kHeaderCrc, Crc32(bytes, 0, 124));
    return;
  }
  const std::uint64_t size = bytes.size();
  const std::uint64_t players = GetU32(bytes, offset::kPlayers);
  const std::uint64_t per_block = GetU32(bytes, offset::kBlockContexts);
  const std::uint64_t records = GetU64(bytes, offset::kContextsOffset);
  const std::uint64_t records_size = GetU64(bytes, offset::kContextsSize);
  const std::uint64_t sums = GetU64(bytes, offset::kChecksumsOffset);
  const std::uint64_t sums_size = GetU64(bytes, offset::kChecksumsSize);
  const std::uint64_t blocks = GetU64(bytes, offset::kBlockCount);
  // Only a layout that lies within the bytes (no overflow: every term is checked first).
  const bool sums_fit = sums <= size && sums_size <= size - sums;
  if (sums_fit && blocks <= sums_size / 4 && records <= size && records_size <= size - records &&
      players >= 1 && players <= 64 && per_block >= 1 && per_block <= (1u << 20)) {
    const std::uint64_t block_bytes = 8 * players * per_block;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const std::uint64_t first = std::min(records_size, block_bytes * b);
      const std::uint64_t end = std::min(records_size, block_bytes * (b + 1));
      PutU32(bytes, sums + 4 * b, Crc32(bytes, records + first, records + end));
    }
  }
  if (sums_fit) PutU32(bytes, offset::kChecksumsCrc, Crc32(bytes, sums, sums + sums_size));
  PutU32(bytes, offset::kHeaderCrc, Crc32(bytes, 0, 124));
}

namespace {

// The header of a version 3 `spec` (its checksums left 0).
std::string Version3Header(const TableSpec& spec) {
  const std::uint64_t c = static_cast<std::uint64_t>(ContextCount(spec.rules, spec.players));
  const std::uint64_t record = 8 * static_cast<std::uint64_t>(spec.players);
  const std::uint64_t blocks = (c + kBlockContexts - 1) / kBlockContexts;
  const std::uint64_t sums = 128 + c * record;
  std::string bytes(128, '\0');
  PutCommonFields(spec, 3, bytes);
  PutU32(bytes, offset::kBlockContexts, kBlockContexts);
  const std::uint64_t u64_fields[][2] = {
      {offset::kContextCount, c},
      {offset::kRulesHash, Fnv1a64(RulesString(spec.rules, spec.players))},
      {offset::kContextsOffset, 128},
      {offset::kContextsSize, c * record},
      {offset::kChecksumsOffset, sums},
      {offset::kChecksumsSize, 4 * blocks},
      {offset::kBlockCount, blocks},
      {offset::kFileSize, sums + 4 * blocks}};
  for (const auto& [at, value] : u64_fields) PutU64(bytes, at, value);
  return bytes;
}

}  // namespace

std::string WriteTable(const TableSpec& spec) {
  std::string bytes = Version3Header(spec);
  bytes.resize(GetU64(bytes, offset::kFileSize), '\0');
  PutContexts(spec, 8 * static_cast<std::uint64_t>(spec.players), bytes);
  RefreshChecksums(bytes);
  return bytes;
}

bool WriteSparseTable(const std::string& path, const TableSpec& spec,
                      const std::vector<std::int64_t>& blocks) {
  std::string header = Version3Header(spec);
  const std::uint64_t c = GetU64(header, offset::kContextCount);
  const std::uint64_t records_size = GetU64(header, offset::kContextsSize);
  const std::uint64_t block_count = GetU64(header, offset::kBlockCount);
  const std::uint64_t record = 8 * static_cast<std::uint64_t>(spec.players);
  const std::uint64_t block_bytes = record * kBlockContexts;
  // The blocks left as holes: zeros, full or the last one's length.
  const std::string zeros(block_bytes, '\0');
  const std::uint64_t last_bytes = records_size - block_bytes * (block_count - 1);
  const std::uint32_t zeros_crc = Crc32(zeros, 0, block_bytes);
  std::string sums(4 * block_count, '\0');
  for (std::uint64_t b = 0; b + 1 < block_count; ++b) PutU32(sums, 4 * b, zeros_crc);
  PutU32(sums, 4 * (block_count - 1), Crc32(zeros, 0, last_bytes));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const std::int64_t b : blocks) {
    const std::uint64_t first = static_cast<std::uint64_t>(b) * kBlockContexts;
    const std::uint64_t end = std::min(c, first + kBlockContexts);
    std::string bytes((end - first) * record, '\0');
    std::vector<int> scores;
    for (std::uint64_t k = first; k < end; ++k) {
      const int mover =
          DecodeContext(spec.rules, spec.players, static_cast<std::int64_t>(k), scores);
      const std::vector<double> win = spec.win(mover, scores);
      for (int j = 0; j < spec.players; ++j) PutF64(bytes, (k - first) * record + 8 * j, win[j]);
    }
    PutU32(sums, 4 * b, Crc32(bytes, 0, bytes.size()));
    out.seekp(static_cast<std::streamoff>(128 + record * first));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  PutU32(header, offset::kChecksumsCrc, Crc32(sums, 0, sums.size()));
  PutU32(header, offset::kHeaderCrc, Crc32(header, 0, 124));
  out.seekp(0);
  out.write(header.data(), 128);
  // Past the records' end: what lies between is a hole, no disk space.
  out.seekp(static_cast<std::streamoff>(GetU64(header, offset::kChecksumsOffset)));
  out.write(sums.data(), static_cast<std::streamsize>(sums.size()));
  out.close();
  return static_cast<bool>(out);
}

std::string WriteVersion1Table(const TableSpec& spec, double roll_value) {
  const std::vector<std::array<int, 6>> states = Version1States(spec.rules.dice);
  const std::uint64_t record = 8 * static_cast<std::uint64_t>(spec.players) + 8;
  const std::string rules_string = "martiandice-policy v1 dice=" + std::to_string(spec.rules.dice) +
                                   " bonus=" + std::to_string(spec.rules.bonus) +
                                   " target=" + std::to_string(spec.rules.target) +
                                   " players=" + std::to_string(spec.players) +
                                   " states=canonical-v1";
  std::string bytes = Version1Header(spec, {1, rules_string, states.size(), 1, record});
  PutContexts(spec, record, bytes);  // block index and reserved field stay 0
  const std::uint64_t states_offset = GetU64(bytes, v1_offset::kStatesOffset);
  const std::uint64_t rolls_offset = GetU64(bytes, v1_offset::kRollsOffset);
  for (size_t k = 0; k < states.size(); ++k) {
    for (int f = 0; f < 6; ++f) bytes[states_offset + 8 * k + f] = static_cast<char>(states[k][f]);
    PutF64(bytes, rolls_offset + 8 * k, roll_value);
  }
  RefreshChecksums(bytes);
  return bytes;
}

TableSpec FirstTurnReachSpec(const martiandice::Rules& rules, int players, int k) {
  TableSpec spec;
  spec.rules = rules;
  spec.players = players;
  spec.win = [players, k](int mover, const std::vector<int>& scores) {
    std::vector<double> win(players, 0.0);
    const bool after_first_turn =
        mover == 1 && std::all_of(scores.begin() + 1, scores.end(), [](int s) { return s == 0; });
    if (after_first_turn) {
      win[scores[0] >= k ? 0 : 1] = 1;
      return win;
    }
    double rest = 1;
    for (int j = 0; j + 2 < players; ++j) rest -= win[j] = rest / 2;
    win[players - 2] = win[players - 1] = rest / 2;
    return win;
  };
  return spec;
}

std::vector<std::int64_t> FirstTurnBlocks(const martiandice::Rules& rules, int players) {
  std::vector<int> scores(players, 0);
  std::vector<std::int64_t> blocks{ContextIndex(rules, players, 0, scores) / kBlockContexts};
  for (int s = 0; s <= table_builder::MaxTurnScore(rules); ++s) {
    scores[0] = s;
    blocks.push_back(ContextIndex(rules, players, 1, scores) / kBlockContexts);
  }
  return blocks;
}

TableSpec RandomSpec(const martiandice::Rules& rules, int players, std::uint64_t seed,
                     bool jitter) {
  TableSpec spec;
  spec.rules = rules;
  spec.players = players;
  spec.win = [players, seed, jitter](int mover, const std::vector<int>& scores) {
    std::uint64_t h = Mix(seed, mover);
    for (int s : scores) h = Mix(h, s);
    Random r{h};
    std::vector<int> units(players, 0);
    for (int u = 0; u < 16; ++u) ++units[r.Below(players)];
    std::vector<double> w;
    for (int u : units) w.push_back(u / 16.0);
    // Two seats holding at least 1/16 each: each holds at most 15/16, so moving
    // up to 1.6e-12 between them keeps both in [0, 1] and the sum at 1.
    const int from = r.Below(players), to = r.Below(players);
    if (jitter && r.Below(2) == 0 && from != to && units[from] > 0 && units[to] > 0) {
      const double moved = (1 + r.Below(4)) * 0.4e-12;
      w[from] -= moved;
      w[to] += moved;
    }
    return w;
  };
  return spec;
}

}  // namespace table_builder
