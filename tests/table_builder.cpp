// Test helper: writes policy table files from docs/FORMAT.md (see table_builder.h).
#include "table_builder.h"

#include <bit>
#include <memory>

namespace table_builder {
namespace {

int SpecMaxTurnScore(const martiandice::Rules& rules) {
  return rules.dice + (rules.dice >= 3 ? rules.bonus : 0);
}

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

std::vector<StateRecord> StoredStates(int dice) {
  std::vector<StateRecord> states;
  for (int t = 0; t <= dice; ++t) {
    for (int r = 0; r <= dice; ++r) {
      for (int e0 = 0; e0 <= dice; ++e0) {
        for (int e1 = 0; e1 <= e0; ++e1) {
          for (int e2 = 0; e2 <= e1; ++e2) {
            int left = dice - t - r - e0 - e1 - e2;
            if (left > 0 && r + e0 >= 1 && t <= r + left)
              states.push_back({t, r, e0, e1, e2, left});
          }
        }
      }
    }
  }
  return states;
}

std::int64_t ContextCount(const martiandice::Rules& rules, int players) {
  std::int64_t total = 0;
  ForEachContext(rules, players, [&](std::int64_t, int, const std::vector<int>&) { ++total; });
  return total;
}

std::int64_t ContextIndex(const martiandice::Rules& rules, int players, int mover,
                          const std::vector<int>& scores) {
  const std::int64_t t = rules.target, a = rules.target + SpecMaxTurnScore(rules);
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

void ForEachContext(const martiandice::Rules& rules, int players,
                    const std::function<void(std::int64_t, int, const std::vector<int>&)>& fn) {
  const int t = rules.target, a = rules.target + SpecMaxTurnScore(rules);
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

void RefreshChecksums(std::string& bytes) {
  PutU32(bytes, offset::kPayloadCrc, Crc32(bytes, 128, bytes.size()));
  PutU32(bytes, offset::kHeaderCrc, Crc32(bytes, 0, 124));
}

std::string WriteTable(const TableSpec& spec) {
  const int p = spec.players;
  const std::vector<StateRecord> states = StoredStates(spec.rules.dice);
  const std::int64_t c = ContextCount(spec.rules, p);
  const std::uint64_t s = states.size(), b = spec.blocks;
  const std::uint64_t contexts_size = c * (8 * p + 8), states_size = s * 8, rolls_size = b * s * 8;
  std::string bytes(128 + contexts_size + states_size + rolls_size, '\0');
  bytes.replace(0, 8, "MDPOLICY");
  const std::string rules_string = "martiandice-policy v1 dice=" + std::to_string(spec.rules.dice) +
                                   " bonus=" + std::to_string(spec.rules.bonus) +
                                   " target=" + std::to_string(spec.rules.target) +
                                   " players=" + std::to_string(p) + " states=canonical-v1";
  const std::uint32_t u32_fields[][2] = {
      {offset::kVersion, 1},
      {offset::kHeaderSize, 128},
      {offset::kDice, static_cast<std::uint32_t>(spec.rules.dice)},
      {offset::kBonus, static_cast<std::uint32_t>(spec.rules.bonus)},
      {offset::kTarget, static_cast<std::uint32_t>(spec.rules.target)},
      {offset::kPlayers, static_cast<std::uint32_t>(p)},
      {offset::kMaxTurnScore, static_cast<std::uint32_t>(SpecMaxTurnScore(spec.rules))},
      {offset::kStateCount, static_cast<std::uint32_t>(s)},
      {offset::kContextCount, static_cast<std::uint32_t>(c)},
      {offset::kBlockCount, static_cast<std::uint32_t>(b)},
      {offset::kTieTolerance, spec.tie_tolerance_e}};
  for (const auto& [at, value] : u32_fields) PutU32(bytes, at, value);
  PutU64(bytes, offset::kRulesHash, Fnv1a64(rules_string));
  PutU64(bytes, offset::kContextsOffset, 128);
  PutU64(bytes, offset::kContextsSize, contexts_size);
  PutU64(bytes, offset::kStatesOffset, 128 + contexts_size);
  PutU64(bytes, offset::kStatesSize, states_size);
  PutU64(bytes, offset::kRollsOffset, 128 + contexts_size + states_size);
  PutU64(bytes, offset::kRollsSize, rolls_size);
  PutF64(bytes, offset::kErrorBound, spec.error_bound);
  ForEachContext(spec.rules, p, [&](std::int64_t index, int mover, const std::vector<int>& sc) {
    const size_t at = 128 + index * (8 * p + 8);
    std::vector<double> w = spec.win(mover, sc);
    for (int j = 0; j < p; ++j) PutF64(bytes, at + 8 * j, w[j]);
    PutU32(bytes, at + 8 * p, spec.block(index));
  });
  for (size_t k = 0; k < s; ++k) {
    const StateRecord& st = states[k];
    const int fields[6] = {st.tanks, st.rays, st.e0, st.e1, st.e2, st.left};
    for (int f = 0; f < 6; ++f)
      bytes[128 + contexts_size + 8 * k + f] = static_cast<char>(fields[f]);
  }
  for (std::uint64_t blk = 0; blk < b; ++blk) {
    for (size_t k = 0; k < s; ++k) {
      PutF64(bytes, 128 + contexts_size + states_size + 8 * (blk * s + k),
             spec.roll(static_cast<int>(blk), states[k]));
    }
  }
  RefreshChecksums(bytes);
  return bytes;
}

TableSpec RandomSpec(const martiandice::Rules& rules, int players, std::uint64_t seed,
                     bool jitter) {
  TableSpec spec;
  spec.rules = rules;
  spec.players = players;
  spec.blocks = 1 + static_cast<int>(seed % 4);
  spec.win = [players, seed](int mover, const std::vector<int>& scores) {
    std::uint64_t h = Mix(seed, mover);
    for (int s : scores) h = Mix(h, s);
    Random r{h};
    std::vector<int> units(players, 0);
    for (int u = 0; u < 16; ++u) ++units[r.Below(players)];
    std::vector<double> w;
    for (int u : units) w.push_back(u / 16.0);
    return w;
  };
  const int blocks = spec.blocks;
  spec.block = [seed, blocks](std::int64_t context) {
    return static_cast<std::uint32_t>(Mix(seed + 1, context) % blocks);
  };
  spec.roll = [seed, jitter](int block, const StateRecord& st) {
    std::uint64_t h = Mix(Mix(seed + 2, block), st.tanks * 1000000 + st.rays * 10000 +
                                                    st.e0 * 1000 + st.e1 * 100 + st.e2);
    Random r{h};
    double v = r.Below(17) / 16.0;
    if (jitter && r.Below(2) == 0) v += (r.Below(9) - 4) * 0.4e-12;
    return v < 0 ? 0 : (v > 1 ? 1 : v);
  };
  return spec;
}

}  // namespace table_builder
