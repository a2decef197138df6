// The policy table format (table_format.h, docs/FORMAT.md): the writer and
// the hardened reader side by side, sharing one header layout, one rules
// string and one context numbering, so they cannot drift apart.
#include "table_format.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "checksum.h"
#include "martiandice/table.h"
#include "table_turns.h"

namespace martiandice::internal {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");
static_assert(std::numeric_limits<double>::is_iec559 && sizeof(double) == 8,
              "the format stores IEEE-754 binary64");

std::string TableRulesString(const Rules& rules, int players) {
  return absl::StrFormat(
      "martiandice-policy v2 dice=%d bonus=%d target=%d players=%d values-only "
      "ties=stop,rays,most-dice,human-cow-chicken",
      rules.dice, rules.bonus, rules.target, players);
}

std::uint64_t TableRulesHash(const Rules& rules, int players) {
  return Fnv1a64(TableRulesString(rules, players));
}

ContextNumbering::ContextNumbering(const Rules& rules, int players)
    : players_(players), target_(rules.target), wide_(rules.target + MaxTurnScore(rules)) {
  for (int seat = 0; seat < players; ++seat) {
    std::int64_t size = 1;
    for (int j = 0; j < players; ++j) size *= Radix(seat, j);
    offset_.push_back(offset_.back() + size);
  }
}

int ContextNumbering::Decode(std::int64_t index, int* scores) const {
  // The mover is the last seat whose contexts start at or before `index`.
  const int seat =
      static_cast<int>(std::upper_bound(offset_.begin(), offset_.end(), index) - offset_.begin()) -
      1;
  std::int64_t rest = index - offset_[seat];
  for (int j = players_ - 1; j >= 0; --j) {
    scores[j] = static_cast<int>(rest % Radix(seat, j));
    rest /= Radix(seat, j);
  }
  return seat;
}

namespace {

// ------------------------------------------------------------ bytes

constexpr std::uint32_t ByteSwap(std::uint32_t v) {
  return (v << 24) | ((v << 8) & 0x00FF0000u) | ((v >> 8) & 0x0000FF00u) | (v >> 24);
}
constexpr std::uint64_t ByteSwap(std::uint64_t v) {
  return (std::uint64_t{ByteSwap(static_cast<std::uint32_t>(v))} << 32) |
         ByteSwap(static_cast<std::uint32_t>(v >> 32));
}
static_assert(ByteSwap(std::uint64_t{0x0102030405060708}) == 0x0807060504030201);

// A little-endian field in native order (and back: the same swap).
template <typename T>
T FromLittleEndian(T v) {
  if constexpr (std::endian::native == std::endian::big) return ByteSwap(v);
  return v;
}

template <typename T>
void Store(std::string& out, size_t at, T v) {
  v = FromLittleEndian(v);
  std::memcpy(out.data() + at, &v, sizeof v);
}

template <typename T>
T Load(std::string_view b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return FromLittleEndian(v);
}

void StoreF64(std::string& out, size_t at, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  Store(out, at, bits);
}

double LoadF64(std::string_view b, size_t at) {
  const std::uint64_t bits = Load<std::uint64_t>(b, at);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// ------------------------------------------------------------ the header

// Field offsets (docs/FORMAT.md, "Header").
enum Offset : size_t {
  kVersionAt = 8,
  kHeaderSizeAt = 12,
  kDiceAt = 16,
  kBonusAt = 20,
  kTargetAt = 24,
  kPlayersAt = 28,
  kMaxTurnScoreAt = 32,
  kBlockContextsAt = 36,
  kContextCountAt = 40,
  kRulesHashAt = 48,
  kContextsOffsetAt = 56,
  kContextsSizeAt = 64,
  kChecksumsOffsetAt = 72,
  kChecksumsSizeAt = 80,
  kBlockCountAt = 88,
  kFileSizeAt = 96,
  kErrorBoundAt = 104,
  kTieExponentAt = 112,
  kReservedAt = 116,
  kChecksumsCrcAt = 120,
  kHeaderCrcAt = 124,
};

// The header's fields.
struct Header {
  std::uint32_t version = kTableVersion, header_size = kTableHeaderSize;
  std::uint32_t dice = 0, bonus = 0, target = 0, players = 0, max_turn_score = 0;
  std::uint32_t block_contexts = kBlockContexts;
  std::uint64_t context_count = 0, rules_hash = 0;
  std::uint64_t contexts_offset = kTableHeaderSize, contexts_size = 0;
  std::uint64_t checksums_offset = 0, checksums_size = 0, block_count = 0, file_size = 0;
  double error_bound = 0;
  std::uint32_t tie_exponent = kTableTieExponent, reserved = 0, checksums_crc = 0, header_crc = 0;
};

void EncodeHeader(const Header& h, std::string& out) {
  out.replace(0, kTableMagic.size(), kTableMagic);
  Store(out, kVersionAt, h.version);
  Store(out, kHeaderSizeAt, h.header_size);
  Store(out, kDiceAt, h.dice);
  Store(out, kBonusAt, h.bonus);
  Store(out, kTargetAt, h.target);
  Store(out, kPlayersAt, h.players);
  Store(out, kMaxTurnScoreAt, h.max_turn_score);
  Store(out, kBlockContextsAt, h.block_contexts);
  Store(out, kContextCountAt, h.context_count);
  Store(out, kRulesHashAt, h.rules_hash);
  Store(out, kContextsOffsetAt, h.contexts_offset);
  Store(out, kContextsSizeAt, h.contexts_size);
  Store(out, kChecksumsOffsetAt, h.checksums_offset);
  Store(out, kChecksumsSizeAt, h.checksums_size);
  Store(out, kBlockCountAt, h.block_count);
  Store(out, kFileSizeAt, h.file_size);
  StoreF64(out, kErrorBoundAt, h.error_bound);
  Store(out, kTieExponentAt, h.tie_exponent);
  Store(out, kReservedAt, h.reserved);
  Store(out, kChecksumsCrcAt, h.checksums_crc);
  Store(out, kHeaderCrcAt, h.header_crc);
}

Header DecodeHeader(std::string_view b) {
  Header h;
  h.version = Load<std::uint32_t>(b, kVersionAt);
  h.header_size = Load<std::uint32_t>(b, kHeaderSizeAt);
  h.dice = Load<std::uint32_t>(b, kDiceAt);
  h.bonus = Load<std::uint32_t>(b, kBonusAt);
  h.target = Load<std::uint32_t>(b, kTargetAt);
  h.players = Load<std::uint32_t>(b, kPlayersAt);
  h.max_turn_score = Load<std::uint32_t>(b, kMaxTurnScoreAt);
  h.block_contexts = Load<std::uint32_t>(b, kBlockContextsAt);
  h.context_count = Load<std::uint64_t>(b, kContextCountAt);
  h.rules_hash = Load<std::uint64_t>(b, kRulesHashAt);
  h.contexts_offset = Load<std::uint64_t>(b, kContextsOffsetAt);
  h.contexts_size = Load<std::uint64_t>(b, kContextsSizeAt);
  h.checksums_offset = Load<std::uint64_t>(b, kChecksumsOffsetAt);
  h.checksums_size = Load<std::uint64_t>(b, kChecksumsSizeAt);
  h.block_count = Load<std::uint64_t>(b, kBlockCountAt);
  h.file_size = Load<std::uint64_t>(b, kFileSizeAt);
  h.error_bound = LoadF64(b, kErrorBoundAt);
  h.tie_exponent = Load<std::uint32_t>(b, kTieExponentAt);
  h.reserved = Load<std::uint32_t>(b, kReservedAt);
  h.checksums_crc = Load<std::uint32_t>(b, kChecksumsCrcAt);
  h.header_crc = Load<std::uint32_t>(b, kHeaderCrcAt);
  return h;
}

// The header of a table for `rules` and `players` with `contexts` contexts
// (checksums left 0).
Header LayoutHeader(const Rules& rules, int players, std::uint64_t contexts, double error_bound) {
  Header h;
  h.dice = static_cast<std::uint32_t>(rules.dice);
  h.bonus = static_cast<std::uint32_t>(rules.bonus);
  h.target = static_cast<std::uint32_t>(rules.target);
  h.players = static_cast<std::uint32_t>(players);
  h.max_turn_score = static_cast<std::uint32_t>(MaxTurnScore(rules));
  h.context_count = contexts;
  h.rules_hash = TableRulesHash(rules, players);
  h.contexts_size = contexts * 8 * static_cast<std::uint64_t>(players);
  h.block_count = (contexts + kBlockContexts - 1) / kBlockContexts;
  h.checksums_offset = kTableHeaderSize + h.contexts_size;
  h.checksums_size = 4 * h.block_count;
  h.file_size = h.checksums_offset + h.checksums_size;
  h.error_bound = error_bound;
  return h;
}

std::uint64_t FileLength(const Header& h) { return h.file_size; }

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
  if (b.size() < kTableMagic.size() && kTableMagic.substr(0, b.size()) == b) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, not even the 8-byte magic MDPOLICY", b.size()));
  }
  if (b.substr(0, kTableMagic.size()) != kTableMagic) {
    return refuse.Corrupt("not a martiandice policy table (the file does not start with MDPOLICY)");
  }
  if (b.size() < kVersionAt + 4) {
    return refuse.Corrupt(
        absl::StrFormat("truncated: the file has %d bytes, no format version", b.size()));
  }
  const std::uint32_t version = Load<std::uint32_t>(b, kVersionAt);
  if (version > kLastTableVersion) {
    return refuse.Corrupt(absl::StrFormat(
        "format version %d is no version of the format (1..%d): the header is corrupt", version,
        kLastTableVersion));
  }
  if (version > kTableVersion) {
    return refuse.Incompatible(absl::StrFormat(
        "format version %d is newer than this library's %d; update martiandice or regenerate "
        "the table with this version (martiandice solve)",
        version, kTableVersion));
  }
  if (version == 1 || version == 2) {
    const std::uint32_t players =
        b.size() >= kPlayersAt + 4 ? Load<std::uint32_t>(b, kPlayersAt) : 0;
    const std::string count =
        players >= kMinPlayers && players <= kMaxPlayers ? absl::StrCat(players) : "P";
    return refuse.Incompatible(absl::StrFormat(
        "format version %d (%s) is no longer read; regenerate the table in format version %d "
        "with `martiandice solve --players %s --out FILE`",
        version, version == 1 ? "roll values stored" : "one payload checksum", kTableVersion,
        count));
  }
  if (version != kTableVersion) {
    return refuse.Corrupt(absl::StrFormat("format version %d is invalid", version));
  }
  if (b.size() < kTableHeaderSize) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, shorter than the 128-byte header", b.size()));
  }
  const std::uint32_t stored = Load<std::uint32_t>(b, kHeaderCrcAt);
  const std::uint32_t computed = Crc32(b.substr(0, kHeaderCrcAt));
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

// Header size, reserved field, rule constants, players, M, hash, error bound
// and the tie tolerance the format fixes.
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
                         CheckRange(refuse, "players", h.players, kMinPlayers, kMaxPlayers)}) {
    if (!s.ok()) return s;
  }
  if (h.tie_exponent != kTableTieExponent) {
    return refuse.Corrupt(absl::StrFormat("header: tie_tolerance_e is %d, the format fixes %d",
                                          h.tie_exponent, kTableTieExponent));
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

// Counts and the section layout against the formulas, then against the
// file's real length (before anything is allocated from these numbers).
absl::Status CheckLayout(const Header& h, std::uint64_t file_size, const Refuser& refuse) {
  const Rules rules{static_cast<int>(h.dice), static_cast<int>(h.bonus),
                    static_cast<int>(h.target)};
  const auto contexts =
      static_cast<std::uint64_t>(ContextNumbering(rules, static_cast<int>(h.players)).size());
  if (h.context_count != contexts) {
    return refuse.Corrupt(absl::StrFormat(
        "header: context_count is %d, but the rules and %d players have %d contexts",
        h.context_count, h.players, contexts));
  }
  const Header expected = LayoutHeader(rules, static_cast<int>(h.players), contexts, 0);
  const struct {
    const char* name;
    std::uint64_t value, expected;
  } fields[] = {
      {"block_contexts", h.block_contexts, expected.block_contexts},
      {"contexts_offset", h.contexts_offset, expected.contexts_offset},
      {"contexts_size", h.contexts_size, expected.contexts_size},
      {"checksums_offset", h.checksums_offset, expected.checksums_offset},
      {"checksums_size", h.checksums_size, expected.checksums_size},
      {"block_count", h.block_count, expected.block_count},
      {"file_size", h.file_size, expected.file_size},
  };
  for (const auto& f : fields) {
    if (f.value != f.expected) {
      return refuse.Corrupt(absl::StrFormat("header: %s is %d, but the layout requires %d", f.name,
                                            f.value, f.expected));
    }
  }
  const std::uint64_t length = FileLength(expected);
  if (file_size < length) {
    return refuse.Corrupt(absl::StrFormat(
        "truncated: the file has %d bytes, but its layout requires %d", file_size, length));
  }
  if (file_size > length) {
    return refuse.Corrupt(absl::StrFormat(
        "%d trailing %s after the last section (the file has %d bytes, the layout requires %d)",
        file_size - length, file_size - length == 1 ? "byte" : "bytes", file_size, length));
  }
  return absl::OkStatus();
}

bool IsProbability(double p) { return p >= 0 && p <= 1; }  // false for NaN

// The CHECKSUMS section against the header's checksum of it.
absl::Status CheckChecksums(std::string_view checksums, const Header& h, const Refuser& refuse) {
  const std::uint32_t computed = Crc32(checksums);
  if (computed == h.checksums_crc) return absl::OkStatus();
  return refuse.Corrupt(absl::StrFormat(
      "checksums section mismatch (stored %08x, computed %08x): the block checksums are corrupt",
      h.checksums_crc, computed));
}

class OwnedBytes final : public TableFile {
 public:
  explicit OwnedBytes(std::string bytes) : bytes_(std::move(bytes)) {}
  std::string_view bytes() const override { return bytes_; }

 private:
  std::string bytes_;
};

}  // namespace

}  // namespace martiandice::internal

namespace martiandice {

std::uint64_t TableBytes(const Rules& rules, int players) {
  const auto contexts =
      static_cast<std::uint64_t>(internal::ContextNumbering(rules, players).size());
  return internal::FileLength(internal::LayoutHeader(rules, players, contexts, 0));
}

int TableSolveProcesses(const Rules& rules, int players) {
  if (!ValidateRules(rules).ok() || players < kMinPlayers || players > kMaxPlayers) return 1;
  return static_cast<int>((TableBytes(rules, players) + kMaxTableBytes - 1) / kMaxTableBytes);
}

}  // namespace martiandice

namespace martiandice::internal {

std::string WinVectorProblem(const double* win, int players, double error_bound) {
  double sum = 0;
  for (int j = 0; j < players; ++j) {
    if (!IsProbability(win[j])) {
      return absl::StrFormat("seat %d's win probability %g is not a probability", j, win[j]);
    }
    sum += win[j];
  }
  // Summing P values that are each within error_bound: allow that plus rounding.
  const double tolerance = players * (error_bound + 8 * std::numeric_limits<double>::epsilon());
  if (std::abs(sum - 1) > tolerance) {
    return absl::StrFormat("the win probabilities sum to %.17g, not 1 within the error bound", sum);
  }
  return "";
}

std::shared_ptr<const TableFile> OwnedTableFile(std::string bytes) {
  return std::make_shared<OwnedBytes>(std::move(bytes));
}

// ------------------------------------------------------------ the writer

TableEncoder::TableEncoder(const Rules& rules, int players, double error_bound)
    : rules_(rules),
      players_(players),
      error_bound_(error_bound),
      contexts_(ContextNumbering(rules, players).size()),
      crcs_(static_cast<size_t>((contexts_ + kBlockContexts - 1) / kBlockContexts)) {}

std::uint64_t TableEncoder::file_size() const {
  return FileLength(LayoutHeader(rules_, players_, contexts_, error_bound_));
}

std::int64_t TableEncoder::BlockEnd(std::int64_t block) const {
  return std::min<std::int64_t>(contexts_, (block + 1) * kBlockContexts);
}

std::string EncodeRecords(std::span<const double> win) {
  std::string out(8 * win.size(), '\0');
  for (size_t i = 0; i < win.size(); ++i) StoreF64(out, 8 * i, std::clamp(win[i], 0.0, 1.0));
  return out;
}

std::string TableEncoder::Block(std::int64_t block, std::span<const double> win) {
  std::string out = EncodeRecords(win);
  crcs_[block] = Crc32(out);
  return out;
}

std::string TableEncoder::Checksums() const {
  std::string out(4 * crcs_.size(), '\0');
  for (size_t b = 0; b < crcs_.size(); ++b) Store(out, 4 * b, crcs_[b]);
  return out;
}

std::string TableEncoder::Header() const {
  internal::Header h = LayoutHeader(rules_, players_, contexts_, error_bound_);
  h.checksums_crc = Crc32(Checksums());
  std::string out(kTableHeaderSize, '\0');
  EncodeHeader(h, out);
  h.header_crc = Crc32(std::string_view(out).substr(0, kHeaderCrcAt));
  EncodeHeader(h, out);
  return out;
}

std::string SerializeTable(const Rules& rules, int players, double error_bound,
                           std::span<const double> win) {
  TableEncoder encoder(rules, players, error_bound);
  std::string out;
  out.reserve(encoder.file_size());
  out.append(kTableHeaderSize, '\0');
  for (std::int64_t b = 0; b < encoder.block_count(); ++b) {
    const std::int64_t first = encoder.BlockBegin(b) * players;
    out += encoder.Block(b, win.subspan(first, encoder.BlockEnd(b) * players - first));
  }
  out += encoder.Checksums();
  out.replace(0, kTableHeaderSize, encoder.Header());
  return out;
}

// ------------------------------------------------------------ the reader

absl::Status CheckTableHeader(std::string_view header, std::uint64_t file_size,
                              const std::string& source) {
  const Refuser refuse(source);
  if (absl::Status s = CheckPreamble(header, refuse); !s.ok()) return s;
  const internal::Header h = DecodeHeader(header);
  if (absl::Status s = CheckHeaderFields(h, refuse); !s.ok()) return s;
  return CheckLayout(h, file_size, refuse);
}

double TableData::Win(std::int64_t context, int seat) const {
  return LoadF64(records, 8 * (static_cast<size_t>(context) * players + seat));
}

void TableData::Win(std::int64_t context, double* out) const {
  for (int j = 0; j < players; ++j) out[j] = Win(context, j);
}

absl::Status TableData::VerifyContext(std::int64_t context) const {
  const std::int64_t block = context / kBlockContexts;
  if (verified[block].load(std::memory_order_acquire) != 0) return absl::OkStatus();
  return VerifyBlock(block);
}

absl::Status TableData::VerifyAll() const {
  if (all_verified.load(std::memory_order_acquire)) return absl::OkStatus();
  for (std::int64_t b = 0; b < block_count(); ++b) {
    if (verified[b].load(std::memory_order_acquire) != 0) continue;
    if (absl::Status s = VerifyBlock(b); !s.ok()) return s;
  }
  all_verified.store(true, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status TableData::VerifyBlock(std::int64_t block) const {
  const Refuser refuse(source);
  const std::int64_t first = block * kBlockContexts;
  const std::int64_t end = std::min<std::int64_t>(context_count(), first + kBlockContexts);
  const size_t record = 8 * static_cast<size_t>(players);
  const std::string_view bytes = records.substr(first * record, (end - first) * record);
  const std::uint32_t stored = Load<std::uint32_t>(checksums, 4 * static_cast<size_t>(block));
  const std::uint32_t computed = Crc32(bytes);
  if (stored != computed) {
    return refuse.Corrupt(absl::StrFormat(
        "block %d (contexts %d..%d) checksum mismatch (stored %08x, computed %08x): the data is "
        "corrupt",
        block, first, end - 1, stored, computed));
  }
  std::array<double, kMaxPlayers> win;
  for (std::int64_t c = first; c < end; ++c) {
    Win(c, win.data());
    if (std::string problem = WinVectorProblem(win.data(), players, error_bound);
        !problem.empty()) {
      return refuse.Corrupt(absl::StrFormat("context %d: %s", c, problem));
    }
  }
  verified[block].store(1, std::memory_order_release);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const TableData>> LoadTable(std::shared_ptr<const TableFile> file,
                                                           const std::string& source,
                                                           bool verify_all) {
  const std::string_view b = file->bytes();
  if (absl::Status s = CheckTableHeader(b, b.size(), source); !s.ok()) return s;
  const internal::Header h = DecodeHeader(b);
  auto d = std::make_shared<TableData>();
  d->checksums = b.substr(h.checksums_offset, h.checksums_size);
  if (absl::Status s = CheckChecksums(d->checksums, h, Refuser(source)); !s.ok()) return s;
  d->rules = Rules{static_cast<int>(h.dice), static_cast<int>(h.bonus), static_cast<int>(h.target)};
  d->players = static_cast<int>(h.players);
  d->max_turn_score = static_cast<int>(h.max_turn_score);
  d->error_bound = h.error_bound;
  d->tie_tolerance_e = static_cast<int>(h.tie_exponent);
  d->tie_tolerance = std::pow(10.0, -d->tie_tolerance_e);
  d->rules_hash = h.rules_hash;
  d->contexts = ContextNumbering(d->rules, d->players);
  d->source = source;
  d->records = b.substr(h.contexts_offset, h.contexts_size);
  d->verified = std::make_unique<std::atomic<std::uint8_t>[]>(h.block_count);
  for (std::uint64_t k = 0; k < h.block_count; ++k) d->verified[k].store(0);
  d->file = std::move(file);
  if (verify_all) {
    if (absl::Status s = d->VerifyAll(); !s.ok()) return s;
  }
  d->turns = std::make_shared<TurnCache>(d->rules, d->context_count());
  return std::shared_ptr<const TableData>(std::move(d));
}

}  // namespace martiandice::internal
