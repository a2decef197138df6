// Policy table reading (docs/FORMAT.md): a hardened parser that checks every
// header field, the section layout against the formulas and the bytes present
// (before allocating), both CRC-32s, the exact end of file, the STATES list and
// every stored probability; and GameTable's loading entry points.
#include <array>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "martiandice/game.h"
#include "table_data.h"

namespace martiandice {
namespace internal {
namespace {

constexpr std::array<std::uint32_t, 256> kCrcTable = [] {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}();

}  // namespace

std::uint32_t Crc32(std::string_view bytes, std::uint32_t crc) {
  crc = ~crc;
  for (char ch : bytes) crc = kCrcTable[(crc ^ static_cast<std::uint8_t>(ch)) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

std::uint64_t Fnv1a64(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (char ch : bytes) {
    hash ^= static_cast<std::uint8_t>(ch);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string TableRulesString(const Rules& rules, int players) {
  return absl::StrFormat(
      "martiandice-policy v1 dice=%d bonus=%d target=%d players=%d "
      "states=canonical-v1",
      rules.dice, rules.bonus, rules.target, players);
}

std::vector<StoredState> ExpectedStoredStates(int dice) {
  std::vector<StoredState> states;
  for (int t = 0; t <= dice; ++t) {
    for (int r = 0; t + r <= dice; ++r) {
      for (int e0 = 0; t + r + e0 <= dice; ++e0) {
        for (int e1 = 0; e1 <= e0 && t + r + e0 + e1 <= dice; ++e1) {
          for (int e2 = 0; e2 <= e1 && t + r + e0 + e1 + e2 <= dice; ++e2) {
            int left = dice - t - r - e0 - e1 - e2;
            if (left == 0 || r + e0 == 0 || t > r + left) continue;
            states.push_back({static_cast<std::uint8_t>(t),
                              static_cast<std::uint8_t>(r),
                              {static_cast<std::uint8_t>(e0), static_cast<std::uint8_t>(e1),
                               static_cast<std::uint8_t>(e2)},
                              static_cast<std::uint8_t>(left)});
          }
        }
      }
    }
  }
  return states;
}

CanonicalIndex::CanonicalIndex(int dice) : dice_(dice) {
  const int n = dice;
  // Sorted triples ranked by sum, so those fitting s dice are a prefix.
  rank3_.assign((n + 1) * (n + 1) * (n + 1), 0);
  std::vector<int> prefix(n + 1, 0);
  int rank = 0;
  for (int sum = 0; sum <= n; ++sum) {
    for (int e0 = sum; e0 >= 0; --e0) {
      for (int e1 = std::min(e0, sum - e0); e1 >= 0; --e1) {
        int e2 = sum - e0 - e1;
        if (e2 > e1) continue;
        rank3_[(e0 * (n + 1) + e1) * (n + 1) + e2] = rank++;
      }
    }
    prefix[sum] = rank;
  }
  base_.assign((n + 1) * (n + 1), 0);
  for (int t = 0; t <= n; ++t) {
    for (int r = 0; t + r <= n; ++r) {
      base_[t * (n + 1) + r] = size_;
      size_ += prefix[n - t - r];
    }
  }
}

std::int64_t TableData::ContextIndex(std::span<const int> scores, int seat) const {
  std::int64_t index = 0;
  for (int j = 0; j < players; ++j) {
    index = index * (j < seat ? score_limit : rules.target) + scores[j];
  }
  return mover_offset[seat] + index;
}

namespace {

// ------------------------------------------------------------ byte reading

std::uint32_t LoadU32(std::string_view b, size_t at) {
  std::uint32_t v = 0;
  for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<std::uint8_t>(b[at + k]);
  return v;
}

std::uint64_t LoadU64(std::string_view b, size_t at) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<std::uint8_t>(b[at + k]);
  return v;
}

double LoadF64(std::string_view b, size_t at) { return std::bit_cast<double>(LoadU64(b, at)); }

// The raw header fields (offsets as in docs/FORMAT.md).
struct Header {
  std::uint32_t version, header_size, dice, bonus, target, players, max_turn_score;
  std::uint32_t state_count, context_count, block_count;
  std::uint64_t rules_hash, contexts_offset, contexts_size, states_offset, states_size;
  std::uint64_t rolls_offset, rolls_size;
  double error_bound;
  std::uint32_t tie_tolerance_e, reserved, payload_crc, header_crc;
};

Header LoadHeader(std::string_view b) {
  Header h;
  h.version = LoadU32(b, 8);
  h.header_size = LoadU32(b, 12);
  h.dice = LoadU32(b, 16);
  h.bonus = LoadU32(b, 20);
  h.target = LoadU32(b, 24);
  h.players = LoadU32(b, 28);
  h.max_turn_score = LoadU32(b, 32);
  h.state_count = LoadU32(b, 36);
  h.context_count = LoadU32(b, 40);
  h.block_count = LoadU32(b, 44);
  h.rules_hash = LoadU64(b, 48);
  h.contexts_offset = LoadU64(b, 56);
  h.contexts_size = LoadU64(b, 64);
  h.states_offset = LoadU64(b, 72);
  h.states_size = LoadU64(b, 80);
  h.rolls_offset = LoadU64(b, 88);
  h.rolls_size = LoadU64(b, 96);
  h.error_bound = LoadF64(b, 104);
  h.tie_tolerance_e = LoadU32(b, 112);
  h.reserved = LoadU32(b, 116);
  h.payload_crc = LoadU32(b, 120);
  h.header_crc = LoadU32(b, 124);
  return h;
}

// ------------------------------------------------------------ the checks

// Builds statuses prefixed with the table's name.
class Refuser {
 public:
  explicit Refuser(std::string source) : source_(std::move(source)) {}
  absl::Status Corrupt(const std::string& why) const {
    return absl::DataLossError(absl::StrCat(source_, ": ", why));
  }
  absl::Status Incompatible(const std::string& why) const {
    return absl::FailedPreconditionError(absl::StrCat(source_, ": ", why));
  }

 private:
  std::string source_;
};

// Magic, version and the header's presence, before any other field is trusted.
absl::Status CheckPreamble(std::string_view b, const Refuser& refuse) {
  const std::string_view magic(kTableMagic, sizeof(kTableMagic));
  if (b.size() < magic.size() && magic.substr(0, b.size()) == b) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, not even the 8-byte magic MDPOLICY", b.size()));
  }
  if (b.substr(0, magic.size()) != magic) {
    return refuse.Corrupt("not a martiandice policy table (the file does not start with MDPOLICY)");
  }
  if (b.size() < 12) {
    return refuse.Corrupt(
        absl::StrFormat("truncated: the file has %d bytes, no format version", b.size()));
  }
  std::uint32_t version = LoadU32(b, 8);
  if (version > kTableVersion) {
    return refuse.Incompatible(absl::StrFormat(
        "format version %d is newer than this library's %d; update martiandice or regenerate "
        "the table with this version",
        version, kTableVersion));
  }
  if (version != kTableVersion) {
    return refuse.Corrupt(absl::StrFormat("format version %d is invalid", version));
  }
  if (b.size() < kTableHeaderSize) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, shorter than the 128-byte header", b.size()));
  }
  std::uint32_t stored = LoadU32(b, 124), computed = Crc32(b.substr(0, 124));
  if (stored != computed) {
    return refuse.Corrupt(absl::StrFormat(
        "header checksum mismatch (stored %08x, computed %08x): the header is corrupt", stored,
        computed));
  }
  return absl::OkStatus();
}

absl::Status CheckRange(const Refuser& refuse, const char* name, std::uint32_t value, int lo,
                        int hi) {
  if (value < static_cast<std::uint32_t>(lo) || value > static_cast<std::uint32_t>(hi)) {
    return refuse.Corrupt(absl::StrFormat("header: %s %d is outside the supported range %d..%d",
                                          name, value, lo, hi));
  }
  return absl::OkStatus();
}

// Header size, reserved field, rule constants, players, M, hash and tolerances.
absl::Status CheckHeaderFields(const Header& h, const Refuser& refuse) {
  if (h.header_size != kTableHeaderSize) {
    return refuse.Corrupt(absl::StrFormat("header: header_size %d, expected 128", h.header_size));
  }
  if (h.reserved != 0) {
    return refuse.Corrupt(absl::StrFormat("header: reserved field is %d, expected 0", h.reserved));
  }
  for (absl::Status s : {CheckRange(refuse, "dice", h.dice, kMinDice, kMaxDice),
                         CheckRange(refuse, "bonus", h.bonus, 0, kMaxBonus),
                         CheckRange(refuse, "target", h.target, kMinTarget, kMaxTarget),
                         CheckRange(refuse, "players", h.players, kMinPlayers, kMaxPlayers),
                         CheckRange(refuse, "tie_tolerance_e", h.tie_tolerance_e, 1, 17)}) {
    if (!s.ok()) return s;
  }
  const Rules rules{static_cast<int>(h.dice), static_cast<int>(h.bonus),
                    static_cast<int>(h.target)};
  if (h.max_turn_score != static_cast<std::uint32_t>(MaxTurnScore(rules))) {
    return refuse.Corrupt(absl::StrFormat("header: max_turn_score %d, but the rules give %d",
                                          h.max_turn_score, MaxTurnScore(rules)));
  }
  const std::string rules_string = TableRulesString(rules, static_cast<int>(h.players));
  if (h.rules_hash != Fnv1a64(rules_string)) {
    return refuse.Incompatible(absl::StrFormat(
        "the table was built under other rules or another state layout: its rules hash is "
        "%016x, but \"%s\" hashes to %016x",
        h.rules_hash, rules_string, Fnv1a64(rules_string)));
  }
  if (!std::isfinite(h.error_bound) || h.error_bound < 0 || h.error_bound >= 1) {
    return refuse.Corrupt(
        absl::StrFormat("header: error_bound %g is not a bound in [0, 1)", h.error_bound));
  }
  return absl::OkStatus();
}

// C from the formula (players and rules already in range: at most 6 * 320^6).
std::uint64_t ContextCountFormula(const Header& h, std::vector<std::int64_t>* mover_offset) {
  const std::uint64_t t = h.target, a = h.target + h.max_turn_score;
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < h.players; ++i) {
    std::uint64_t size = 1;
    for (std::uint32_t j = 0; j < h.players; ++j) size *= j < i ? a : t;
    if (mover_offset) mover_offset->push_back(static_cast<std::int64_t>(total));
    total += size;
  }
  return total;
}

absl::Status CheckField(const Refuser& refuse, const char* name, std::uint64_t value,
                        std::uint64_t expected) {
  if (value != expected) {
    return refuse.Corrupt(
        absl::StrFormat("header: %s is %d, but the layout requires %d", name, value, expected));
  }
  return absl::OkStatus();
}

// Counts and the section layout against the formulas, then against the file's
// real length (before anything is allocated from these numbers).
absl::Status CheckLayout(const Header& h, size_t file_size, const Refuser& refuse) {
  const std::uint64_t states = ExpectedStoredStates(static_cast<int>(h.dice)).size();
  if (h.state_count != states) {
    return refuse.Corrupt(
        absl::StrFormat("header: state_count is %d, but %d dice have %d stored positions",
                        h.state_count, h.dice, states));
  }
  const std::uint64_t contexts = ContextCountFormula(h, nullptr);
  if (h.context_count != contexts) {
    return refuse.Corrupt(absl::StrFormat(
        "header: context_count is %d, but the rules and %d players have %d contexts",
        h.context_count, h.players, contexts));
  }
  if (h.block_count == 0) return refuse.Corrupt("header: block_count is 0");
  const std::uint64_t contexts_size = contexts * (8 * h.players + 8);
  const std::uint64_t states_size = states * 8;
  const std::uint64_t rolls_size = std::uint64_t{h.block_count} * states * 8;  // < 2^32 * 2^20
  const std::uint64_t states_offset = kTableHeaderSize + contexts_size;
  const std::uint64_t rolls_offset = states_offset + states_size;
  for (absl::Status s : {CheckField(refuse, "contexts_offset", h.contexts_offset, 128),
                         CheckField(refuse, "contexts_size", h.contexts_size, contexts_size),
                         CheckField(refuse, "states_offset", h.states_offset, states_offset),
                         CheckField(refuse, "states_size", h.states_size, states_size),
                         CheckField(refuse, "rolls_offset", h.rolls_offset, rolls_offset),
                         CheckField(refuse, "rolls_size", h.rolls_size, rolls_size)}) {
    if (!s.ok()) return s;
  }
  const std::uint64_t length = rolls_offset + rolls_size;
  if (file_size < length) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, but its layout requires %d", file_size, length));
  }
  if (file_size > length) {
    return refuse.Corrupt(absl::StrFormat(
        "%d trailing bytes after the last section (the file has %d bytes, the layout requires %d)",
        file_size - length, file_size, length));
  }
  return absl::OkStatus();
}

bool IsProbability(double p) { return std::isfinite(p) && p >= 0 && p <= 1; }

absl::Status LoadContexts(std::string_view b, const Header& h, TableData& d,
                          const Refuser& refuse) {
  const int p = d.players;
  const size_t record = 8 * p + 8;
  // Summing P values that are each within error_bound: allow that plus rounding.
  const double sum_tolerance = p * (d.error_bound + 8 * std::numeric_limits<double>::epsilon());
  d.win.resize(d.context_count * p);
  d.block.resize(d.context_count);
  for (std::int64_t c = 0; c < d.context_count; ++c) {
    const size_t at = h.contexts_offset + c * record;
    double sum = 0;
    for (int j = 0; j < p; ++j) {
      double w = LoadF64(b, at + 8 * j);
      if (!IsProbability(w)) {
        return refuse.Corrupt(absl::StrFormat(
            "context %d: seat %d's win probability %g is not a probability", c, j, w));
      }
      d.win[c * p + j] = w;
      sum += w;
    }
    if (std::abs(sum - 1) > sum_tolerance) {
      return refuse.Corrupt(absl::StrFormat(
          "context %d: the win probabilities sum to %.17g, not 1 within the error bound", c, sum));
    }
    d.block[c] = LoadU32(b, at + 8 * p);
    if (d.block[c] >= h.block_count) {
      return refuse.Corrupt(absl::StrFormat("context %d: block %d is out of range (%d blocks)", c,
                                            d.block[c], h.block_count));
    }
    if (std::uint32_t reserved = LoadU32(b, at + 8 * p + 4); reserved != 0) {
      return refuse.Corrupt(
          absl::StrFormat("context %d: reserved field is %d, expected 0", c, reserved));
    }
  }
  return absl::OkStatus();
}

std::string FormatState(const StoredState& s) {
  return absl::StrFormat("(t=%d r=%d e=%d,%d,%d)", s.tanks, s.rays, s.earth[0], s.earth[1],
                         s.earth[2]);
}

// One STATES record on its own: reserved, canonical, within the dice, L, stored.
absl::Status CheckState(const StoredState& s, std::uint32_t reserved, int dice, size_t k,
                        const Refuser& refuse) {
  const std::string where = absl::StrFormat("STATES record %d %s", k, FormatState(s));
  if (reserved != 0) {
    return refuse.Corrupt(absl::StrFormat("%s: reserved field is %d, expected 0", where, reserved));
  }
  if (s.earth[0] < s.earth[1] || s.earth[1] < s.earth[2]) {
    return refuse.Corrupt(absl::StrCat(where, ": earthling counts are not sorted (not canonical)"));
  }
  const int used = s.tanks + s.rays + s.earth[0] + s.earth[1] + s.earth[2];
  if (used > dice) {
    return refuse.Corrupt(
        absl::StrFormat("%s: %d dice set aside, the rules have %d", where, used, dice));
  }
  if (s.left != dice - used) {
    return refuse.Corrupt(
        absl::StrFormat("%s: dice left is %d, should be %d", where, s.left, dice - used));
  }
  if (s.left == 0 || s.rays + s.earth[0] == 0 || s.tanks > s.rays + s.left) {
    return refuse.Corrupt(
        absl::StrCat(where, ": this position's roll value is given by rule, not stored"));
  }
  return absl::OkStatus();
}

bool Before(const StoredState& a, const StoredState& b) {
  auto key = [](const StoredState& s) {
    return std::array<int, 5>{s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2]};
  };
  return key(a) < key(b);
}

// Every record valid and strictly increasing; with the count checked against
// the formula, that makes the list exactly the prescribed one.
absl::Status LoadStates(std::string_view b, const Header& h, TableData& d, const Refuser& refuse) {
  d.states.resize(h.state_count);
  for (size_t k = 0; k < d.states.size(); ++k) {
    const size_t at = h.states_offset + 8 * k;
    StoredState& s = d.states[k];
    s.tanks = static_cast<std::uint8_t>(b[at]);
    s.rays = static_cast<std::uint8_t>(b[at + 1]);
    for (int e = 0; e < 3; ++e) s.earth[e] = static_cast<std::uint8_t>(b[at + 2 + e]);
    s.left = static_cast<std::uint8_t>(b[at + 5]);
    const std::uint32_t reserved =
        static_cast<std::uint8_t>(b[at + 6]) | (static_cast<std::uint8_t>(b[at + 7]) << 8);
    if (absl::Status st = CheckState(s, reserved, d.rules.dice, k, refuse); !st.ok()) return st;
    if (k > 0 && !Before(d.states[k - 1], s)) {
      return refuse.Corrupt(absl::StrFormat("STATES record %d %s is out of order (after %s)", k,
                                            FormatState(s), FormatState(d.states[k - 1])));
    }
  }
  return absl::OkStatus();
}

absl::Status LoadRolls(std::string_view b, const Header& h, TableData& d, const Refuser& refuse) {
  const size_t s = d.states.size();
  d.rolls.resize(d.block_count * s);
  for (size_t k = 0; k < d.rolls.size(); ++k) {
    double v = LoadF64(b, h.rolls_offset + 8 * k);
    if (!IsProbability(v)) {
      return refuse.Corrupt(absl::StrFormat(
          "ROLLS block %d, slot %d: value %g is not a probability", k / s, k % s, v));
    }
    d.rolls[k] = v;
  }
  return absl::OkStatus();
}

void BuildSlotIndex(TableData& d) {
  d.index = CanonicalIndex(d.rules.dice);
  d.slot_of.assign(d.index.size(), -1);
  for (size_t k = 0; k < d.states.size(); ++k) {
    const StoredState& s = d.states[k];
    d.slot_of[d.index.Id(s.tanks, s.rays, s.earth[0], s.earth[1], s.earth[2])] =
        static_cast<std::int32_t>(k);
  }
}

absl::StatusOr<std::shared_ptr<const TableData>> Parse(std::string_view b, const Refuser& refuse) {
  if (absl::Status s = CheckPreamble(b, refuse); !s.ok()) return s;
  const Header h = LoadHeader(b);
  if (absl::Status s = CheckHeaderFields(h, refuse); !s.ok()) return s;
  if (absl::Status s = CheckLayout(h, b.size(), refuse); !s.ok()) return s;
  std::uint32_t computed = Crc32(b.substr(kTableHeaderSize));
  if (computed != h.payload_crc) {
    return refuse.Corrupt(absl::StrFormat(
        "payload checksum mismatch (stored %08x, computed %08x): the data is corrupt",
        h.payload_crc, computed));
  }
  auto d = std::make_shared<TableData>();
  d->rules = Rules{static_cast<int>(h.dice), static_cast<int>(h.bonus), static_cast<int>(h.target)};
  d->players = static_cast<int>(h.players);
  d->max_turn_score = static_cast<int>(h.max_turn_score);
  d->score_limit = d->rules.target + d->max_turn_score;
  d->error_bound = h.error_bound;
  d->tie_tolerance_e = static_cast<int>(h.tie_tolerance_e);
  d->tie_tolerance = std::pow(10.0, -d->tie_tolerance_e);
  d->rules_hash = h.rules_hash;
  d->context_count = ContextCountFormula(h, &d->mover_offset);
  d->block_count = h.block_count;
  if (absl::Status s = LoadContexts(b, h, *d, refuse); !s.ok()) return s;
  if (absl::Status s = LoadStates(b, h, *d, refuse); !s.ok()) return s;
  if (absl::Status s = LoadRolls(b, h, *d, refuse); !s.ok()) return s;
  BuildSlotIndex(*d);
  return std::shared_ptr<const TableData>(std::move(d));
}

// ------------------------------------------------------------ files

absl::Status OpenError(const std::string& path, int error) {
  std::string why = absl::StrFormat("cannot read policy table %s: %s", path, std::strerror(error));
  if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(why);
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(why);
  return absl::UnavailableError(why);
}

// Checks that `path` is a regular file of at most kMaxTableFileSize bytes.
absl::Status CheckFile(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found) return OpenError(path, ENOENT);
  if (ec) return OpenError(path, ec.value());
  if (std::filesystem::is_directory(status)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("policy table path %s is a directory, not a file", path));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("policy table path %s is not a regular file", path));
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxTableFileSize) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "policy table %s is %d bytes, larger than 1 GiB: far beyond any table this library "
        "reads",
        path, size));
  }
  return absl::OkStatus();
}

// The whole file, refusing more than kMaxTableFileSize bytes (should it grow).
absl::StatusOr<std::string> ReadFile(const std::string& path) {
  if (absl::Status s = CheckFile(path); !s.ok()) return s;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return OpenError(path, errno);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);
  std::string bytes;
  char buffer[1 << 16];
  while (size_t n = std::fread(buffer, 1, sizeof(buffer), file)) {
    if (bytes.size() + n > kMaxTableFileSize) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "policy table %s is larger than 1 GiB: far beyond any table this library reads", path));
    }
    bytes.append(buffer, n);
  }
  if (std::ferror(file)) return OpenError(path, errno);
  return bytes;
}

}  // namespace
}  // namespace internal

absl::StatusOr<GameTable> GameTable::Open(const std::string& path) {
  absl::StatusOr<std::string> bytes = internal::ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  auto data = internal::Parse(*bytes, internal::Refuser(absl::StrCat("policy table ", path)));
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

absl::StatusOr<GameTable> GameTable::FromBytes(std::string bytes) {
  auto data = internal::Parse(bytes, internal::Refuser("policy table"));
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

const Rules& GameTable::rules() const { return data_->rules; }
int GameTable::players() const { return data_->players; }
double GameTable::error_bound() const { return data_->error_bound; }

}  // namespace martiandice
