// The N-player checkpoint file: serialisation, atomic-write-ready bytes and
// a defensive parser (docs/PLAYERS.md, "Checkpoints").
#include "checkpoint.h"

#include <algorithm>
#include <bit>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <new>
#include <optional>
#include <ostream>
#include <streambuf>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "checksum.h"
#include "martiandice/context.h"
#include "table_format.h"

namespace martiandice::solver {
namespace {

// The file: the magic, then one cereal portable binary archive written
// little-endian (its byte order flag, the format version, the header, the
// records, the CRC-32 of every byte before it).
constexpr char kMagic[8] = {'M', 'D', 'N', 'C', 'K', 'P', 'T', '\0'};
constexpr std::uint32_t kFormatVersion = 4;
constexpr std::uint8_t kLittleEndianFlag = 1;  // cereal's byte order flag for little-endian
// The magic, the flag, the format version and the header's 156 bytes.
constexpr size_t kHeaderSize = sizeof kMagic + 1 + 4 + 156;
constexpr size_t kCrcSize = 4;
constexpr std::uint32_t kMaxRanks = 1u << 20;  // a header's sanity bound, far past any cluster

// The header's fields, in file order.
struct Header {
  std::uint32_t solver_version = 0;
  std::uint32_t dice = 0, bonus = 0, target = 0, players = 0;
  std::uint32_t arithmetic = 0;  // 1 double, 2 x87 extended
  std::uint32_t levels = 0;
  std::uint32_t rank = 0, ranks = 0;
  std::uint64_t identity_hash = 0;
  std::uint32_t levels_done = 0, max_rounds = 0;
  std::uint64_t vectors_done = 0, contexts = 0;
  std::uint64_t turn_solves = 0, cycles = 0, rounds = 0;
  std::uint64_t tied = 0, kingmaking = 0, kingmaking_contexts = 0;
  double max_residual = 0, error_bound = 0, seconds = 0;
  std::uint64_t mixed_cycles = 0;
  double mixing_error = 0;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(solver_version, dice, bonus, target, players, arithmetic, levels, rank, ranks, identity_hash,
       levels_done, max_rounds, vectors_done, contexts, turn_solves, cycles, rounds, tied,
       kingmaking, kingmaking_contexts, max_residual, error_bound, seconds, mixed_cycles,
       mixing_error);
  }
};

std::uint64_t IdentityHash(const CheckpointIdentity& identity) {
  return internal::Fnv1a64(CheckpointIdentityString(identity));
}

// Bytes handed to a sink in chunks of about kChunk, with the CRC-32 and
// the count of those handed; after the sink's first error, dropped.
class SinkBuf : public std::streambuf {
 public:
  static constexpr size_t kChunk = size_t{1} << 20;
  explicit SinkBuf(CheckpointSink sink) : sink_(std::move(sink)) {}

  // Hands what is buffered to the sink.
  void Flush() {
    if (status_.ok() && !buffer_.empty()) {
      crc_ = internal::Crc32(buffer_, crc_);
      status_ = sink_(buffer_);
      handed_ += buffer_.size();
    }
    buffer_.clear();
  }
  std::uint32_t crc() const { return crc_; }
  std::uint64_t handed() const { return handed_; }
  const absl::Status& status() const { return status_; }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize done = 0; done < n;) {  // a chunk at a time, however large the write
      const auto take = std::min<std::streamsize>(
          n - done, static_cast<std::streamsize>(kChunk - std::min(kChunk, buffer_.size())));
      buffer_.append(s + done, static_cast<size_t>(take));
      done += take;
      if (buffer_.size() >= kChunk) Flush();
    }
    return n;
  }
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      const char ch = traits_type::to_char_type(c);
      xsputn(&ch, 1);
    }
    return traits_type::not_eof(c);
  }

 private:
  CheckpointSink sink_;
  std::string buffer_;
  std::uint32_t crc_ = 0;
  std::uint64_t handed_ = 0;
  absl::Status status_;
};

// Reads a string_view in place (never written through).
class ViewBuf : public std::streambuf {
 public:
  explicit ViewBuf(std::string_view bytes) {
    char* begin = const_cast<char*>(bytes.data());
    setg(begin, begin, begin + bytes.size());
  }
};

// Reads from `source` (sgetn only), with the CRC-32 of what it read.
class CrcReadBuf : public std::streambuf {
 public:
  explicit CrcReadBuf(std::streambuf& source) : source_(source) {}
  std::uint32_t crc() const { return crc_; }

 protected:
  std::streamsize xsgetn(char* s, std::streamsize n) override {
    const std::streamsize got = source_.sgetn(s, n);
    if (got > 0) crc_ = internal::Crc32(std::string_view(s, static_cast<size_t>(got)), crc_);
    return got;
  }

 private:
  std::streambuf& source_;
  std::uint32_t crc_ = 0;
};

// Reads exactly `n` bytes into `to`, in pieces; false if the source ends first.
bool ReadExactly(std::streambuf& in, char* to, std::uint64_t n) {
  constexpr std::uint64_t kPiece = std::uint64_t{1} << 26;
  for (std::uint64_t done = 0; done < n;) {
    const auto want = static_cast<std::streamsize>(std::min(kPiece, n - done));
    if (in.sgetn(to + done, want) != want) return false;
    done += static_cast<std::uint64_t>(want);
  }
  return true;
}

}  // namespace

std::string CheckpointIdentityString(const CheckpointIdentity& id) {
  std::string text =
      absl::StrFormat("dice=%d bonus=%d target=%d players=%d arithmetic=%s solver=v%u levels=%u",
                      id.rules.dice, id.rules.bonus, id.rules.target, id.players,
                      id.extended ? "extended" : "double", id.solver_version, id.levels);
  if (id.ranks > 1) absl::StrAppendFormat(&text, " rank=%u/%u", id.rank, id.ranks);
  return text;
}

std::uint64_t CheckpointSize(std::uint64_t contexts, int players) {
  return kHeaderSize + contexts * static_cast<std::uint64_t>(CheckpointRecordWidth(players)) * 8 +
         kCrcSize;
}

struct CheckpointWriter::State {
  explicit State(CheckpointSink sink) : buf(std::move(sink)) {}
  SinkBuf buf;
  std::ostream stream{&buf};
  std::optional<cereal::PortableBinaryOutputArchive> archive;
  std::uint64_t values_left = 0;  // announced and not yet appended
  std::uint64_t size = 0;         // of the whole file
  absl::Status status;            // the first failure
};

CheckpointWriter::CheckpointWriter(const Checkpoint& c, std::uint64_t contexts, CheckpointSink sink)
    : state_(std::make_unique<State>(std::move(sink))) {
  const CheckpointIdentity& id = c.identity;
  State& s = *state_;
  s.values_left = contexts * static_cast<std::uint64_t>(CheckpointRecordWidth(id.players));
  s.size = CheckpointSize(contexts, id.players);
  Header h;
  h.solver_version = id.solver_version;
  h.dice = static_cast<std::uint32_t>(id.rules.dice);
  h.bonus = static_cast<std::uint32_t>(id.rules.bonus);
  h.target = static_cast<std::uint32_t>(id.rules.target);
  h.players = static_cast<std::uint32_t>(id.players);
  h.arithmetic = id.extended ? 2 : 1;
  h.levels = id.levels;
  h.rank = id.rank;
  h.ranks = id.ranks;
  h.identity_hash = IdentityHash(id);
  h.levels_done = c.levels_done;
  h.max_rounds = c.counters.max_rounds;
  h.vectors_done = c.vectors_done;
  h.contexts = contexts;
  h.turn_solves = c.counters.turn_solves;
  h.cycles = c.counters.cycles;
  h.rounds = c.counters.rounds;
  h.tied = c.counters.tied;
  h.kingmaking = c.counters.kingmaking;
  h.kingmaking_contexts = c.counters.kingmaking_contexts;
  h.max_residual = c.counters.max_residual;
  h.error_bound = c.counters.error_bound;
  h.seconds = c.seconds;
  h.mixed_cycles = c.counters.mixed_cycles;
  h.mixing_error = c.counters.mixing_error;
  try {
    s.buf.sputn(kMagic, sizeof kMagic);
    s.archive.emplace(s.stream, cereal::PortableBinaryOutputArchive::Options::LittleEndian());
    (*s.archive)(kFormatVersion, h);
  } catch (const std::exception& e) {
    s.status = absl::InternalError(absl::StrCat("serialising the checkpoint: ", e.what()));
  }
}

CheckpointWriter::~CheckpointWriter() = default;

void CheckpointWriter::Append(const double* values, size_t count) {
  State& s = *state_;
  if (!s.status.ok()) return;
  if (count > s.values_left) {
    s.status = absl::InternalError("serialising the checkpoint: more values than announced");
    return;
  }
  try {
    (*s.archive)(cereal::binary_data(values, count * sizeof(double)));
    s.values_left -= count;
  } catch (const std::exception& e) {
    s.status = absl::InternalError(absl::StrCat("serialising the checkpoint: ", e.what()));
  }
}

absl::Status CheckpointWriter::Finish() {
  State& s = *state_;
  if (!s.status.ok()) return s.status;
  if (s.values_left != 0) {
    return absl::InternalError(absl::StrFormat(
        "serialising the checkpoint: %u values fewer than announced", s.values_left));
  }
  try {
    s.buf.Flush();  // the checksum covers every byte before it
    (*s.archive)(s.buf.crc());
    s.buf.Flush();
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("serialising the checkpoint: ", e.what()));
  }
  if (!s.buf.status().ok()) return s.buf.status();
  if (s.buf.handed() != s.size) {
    return absl::InternalError(absl::StrFormat(
        "serialising the checkpoint: %u bytes where the layout has %u", s.buf.handed(), s.size));
  }
  s.status = absl::FailedPreconditionError("the checkpoint was already finished");
  return absl::OkStatus();
}

absl::StatusOr<std::string> SerializeCheckpoint(const Checkpoint& c) {
  const size_t per_context = static_cast<size_t>(CheckpointRecordWidth(c.identity.players));
  if (c.identity.players < 0 || c.records.size() % per_context != 0) {
    return absl::InternalError(
        absl::StrFormat("serialising the checkpoint: %u values are not whole contexts of %u",
                        c.records.size(), per_context));
  }
  std::string out;
  CheckpointWriter writer(c, c.records.size() / per_context, [&out](std::string_view bytes) {
    out.append(bytes);
    return absl::OkStatus();
  });
  writer.Append(c.records.data(), c.records.size());
  if (absl::Status status = writer.Finish(); !status.ok()) return status;
  return out;
}

// The reader's source (a file, or bytes in memory), the CRC-32 of what it
// has read, and the records of the chunk being read.
struct CheckpointReader::State {
  std::unique_ptr<std::streambuf> source;
  std::optional<CrcReadBuf> in;
  std::string path;
  Checkpoint header;
  int width = 0;
  std::uint64_t contexts = 0;  // announced
  std::uint64_t next = 0;      // the next context to read
  std::vector<double> chunk;   // records read, from context chunk_first
  std::uint64_t chunk_first = 0;
  absl::Status failed;  // the first error: nothing is read after it

  absl::Status Corrupt(const std::string& what) const {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %s; delete it to start the solve over", path, what));
  }
};

CheckpointReader::CheckpointReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
CheckpointReader::~CheckpointReader() = default;

const Checkpoint& CheckpointReader::header() const { return state_->header; }
const std::string& CheckpointReader::path() const { return state_->path; }
std::uint64_t CheckpointReader::contexts() const { return state_->contexts; }

// The header of the `size` bytes `source` holds, read whole and checked:
// another solve's is named before the size is judged against `max_size`,
// and every count is checked against the bytes there before anything is
// sized by it.
absl::StatusOr<std::unique_ptr<CheckpointReader>> CheckpointReader::Start(
    std::unique_ptr<std::streambuf> source, std::uint64_t size, const std::string& path,
    const CheckpointIdentity& expected, std::uint64_t max_size) {
  auto state = std::make_unique<State>();
  State& s = *state;
  s.source = std::move(source);
  s.path = path;
  auto corrupt = [&s](const std::string& what) { return s.Corrupt(what); };
  if (size < kHeaderSize + kCrcSize) {
    return corrupt(absl::StrFormat("truncated (%u bytes, a checkpoint has at least %u)", size,
                                   kHeaderSize + kCrcSize));
  }
  CrcReadBuf& in = s.in.emplace(*s.source);
  std::string head(kHeaderSize, '\0');
  if (!ReadExactly(in, head.data(), kHeaderSize)) return corrupt("unreadable (its header)");
  if (std::memcmp(head.data(), kMagic, sizeof kMagic) != 0) {
    // Maybe a file of the user's named by mistake: kept, not to be deleted.
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: not a martiandice N-player checkpoint (bad magic); it is left "
        "as it is: give the solve another checkpoint path",
        path));
  }
  if (const auto flag = static_cast<std::uint8_t>(head[sizeof kMagic]); flag != kLittleEndianFlag) {
    return corrupt(absl::StrFormat("byte order flag %u, not little-endian", flag));
  }
  try {
    ViewBuf buf(std::string_view(head).substr(sizeof kMagic));
    std::istream stream(&buf);
    // The option is the byte order wanted in memory (the host's); the
    // file's is the flag the archive reads first, checked above.
    cereal::PortableBinaryInputArchive archive(
        stream, cereal::PortableBinaryInputArchive::Options::Default());
    std::uint32_t version = 0;
    archive(version);
    if (version != kFormatVersion) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "checkpoint %s has format version %u, this build reads version %u; delete it to start "
          "the solve over",
          path, version, kFormatVersion));
    }
    Header h;
    archive(h);
    if (h.dice > 1000 || h.bonus > 1000 || h.target > 100000 || h.players < kMinPlayers ||
        h.players > kMaxPlayers || (h.arithmetic != 1 && h.arithmetic != 2) || h.ranks < 1 ||
        h.ranks > kMaxRanks || h.rank >= h.ranks) {
      return corrupt(absl::StrFormat(
          "header out of range (dice %u, bonus %u, target %u, players %u, arithmetic %u, rank %u "
          "of %u)",
          h.dice, h.bonus, h.target, h.players, h.arithmetic, h.rank, h.ranks));
    }
    Checkpoint& c = s.header;
    CheckpointIdentity& id = c.identity;
    id.rules.dice = static_cast<int>(h.dice);
    id.rules.bonus = static_cast<int>(h.bonus);
    id.rules.target = static_cast<int>(h.target);
    id.players = static_cast<int>(h.players);
    id.extended = h.arithmetic == 2;
    id.solver_version = h.solver_version;
    id.levels = h.levels;
    id.rank = h.rank;
    id.ranks = h.ranks;
    if (h.identity_hash != IdentityHash(id)) return corrupt("identity hash mismatch");
    if (id.rules != expected.rules || id.players != expected.players ||
        id.extended != expected.extended || id.solver_version != expected.solver_version ||
        id.levels != expected.levels || id.rank != expected.rank || id.ranks != expected.ranks) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "checkpoint %s belongs to another solve (%s) than this one (%s); delete it or give "
          "another checkpoint file",
          path, CheckpointIdentityString(id), CheckpointIdentityString(expected)));
    }
    if (size > max_size) {
      return corrupt(absl::StrFormat("%u bytes, more than this solve's checkpoint can take (%u)",
                                     size, max_size));
    }
    // At least the checksum's bytes are left: the minimum size is checked above.
    s.width = CheckpointRecordWidth(static_cast<int>(h.players));
    const std::uint64_t per_context = static_cast<std::uint64_t>(s.width) * sizeof(double);
    const std::uint64_t left = size - kHeaderSize - kCrcSize;
    if (h.contexts > left / per_context) {
      return corrupt(absl::StrFormat("truncated (%u bytes, its header announces %u contexts)", size,
                                     h.contexts));
    }
    if (h.contexts * per_context != left) {
      return corrupt(absl::StrFormat("%u bytes where its %u contexts take %u", size, h.contexts,
                                     CheckpointSize(h.contexts, id.players)));
    }
    s.contexts = h.contexts;
    c.levels_done = h.levels_done;
    c.vectors_done = h.vectors_done;
    if (c.levels_done > id.levels || (c.levels_done == id.levels && c.vectors_done > 0)) {
      return corrupt(absl::StrFormat("%u levels done (and %u score vectors) of %u", c.levels_done,
                                     c.vectors_done, id.levels));
    }
    c.counters.turn_solves = h.turn_solves;
    c.counters.cycles = h.cycles;
    c.counters.rounds = h.rounds;
    c.counters.tied = h.tied;
    c.counters.kingmaking = h.kingmaking;
    c.counters.kingmaking_contexts = h.kingmaking_contexts;
    c.counters.max_rounds = h.max_rounds;
    c.counters.max_residual = h.max_residual;
    c.counters.error_bound = h.error_bound;
    c.seconds = h.seconds;
    c.counters.mixed_cycles = h.mixed_cycles;
    c.counters.mixing_error = h.mixing_error;
    // The figures a report and a table's header take: bounds and times are
    // non-negative (NaN fails), the rounds an int.
    for (const double figure : {h.max_residual, h.error_bound, h.seconds, h.mixing_error}) {
      if (!(figure >= 0)) return corrupt(absl::StrFormat("a counter is %g", figure));
    }
    if (h.max_rounds > static_cast<std::uint32_t>(std::numeric_limits<int>::max())) {
      return corrupt(absl::StrFormat("%u rounds", h.max_rounds));
    }
  } catch (const std::exception& e) {
    return corrupt(absl::StrCat("unreadable (", e.what(), ")"));
  }
  return std::unique_ptr<CheckpointReader>(new CheckpointReader(std::move(state)));
}

absl::StatusOr<std::unique_ptr<CheckpointReader>> CheckpointReader::Open(
    const std::string& path, const CheckpointIdentity& expected, std::uint64_t max_size) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (!fs::exists(status)) {
    return absl::NotFoundError(absl::StrFormat("checkpoint %s does not exist", path));
  }
  if (!fs::is_regular_file(status)) {
    return absl::FailedPreconditionError(
        absl::StrFormat("checkpoint %s is not a regular file", path));
  }
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) {
    return absl::PermissionDeniedError(
        absl::StrFormat("cannot read checkpoint %s: %s", path, error.message()));
  }
  auto file = std::make_unique<std::filebuf>();
  if (file->open(path, std::ios::in | std::ios::binary) == nullptr) {
    return absl::PermissionDeniedError(absl::StrFormat("cannot read checkpoint %s", path));
  }
  return Start(std::move(file), size, path, expected, max_size);
}

absl::StatusOr<std::unique_ptr<CheckpointReader>> CheckpointReader::OpenBytes(
    std::string_view bytes, const std::string& path, const CheckpointIdentity& expected) {
  return Start(std::make_unique<ViewBuf>(bytes), bytes.size(), path, expected,
               std::numeric_limits<std::uint64_t>::max());
}

absl::Status CheckpointReader::Next(double* record) {
  State& s = *state_;
  if (!s.failed.ok()) return s.failed;
  if (s.next >= s.contexts) {
    return s.failed = absl::InternalError("reading a checkpoint past its last context");
  }
  const auto width = static_cast<std::uint64_t>(s.width);
  if (s.next - s.chunk_first >= s.chunk.size() / width) {
    // The next chunk of about kChunk bytes, whole contexts.
    const std::uint64_t count =
        std::min(s.contexts - s.next, std::max<std::uint64_t>(1, SinkBuf::kChunk / (8 * width)));
    s.chunk.resize(count * width);
    char* bytes = reinterpret_cast<char*>(s.chunk.data());
    if (!ReadExactly(*s.in, bytes, count * width * 8)) {
      return s.failed = s.Corrupt("unreadable (its records)");
    }
    if constexpr (std::endian::native == std::endian::big) {  // the file is little-endian
      for (std::uint64_t at = 0; at < count * width * 8; at += 8) {
        std::reverse(bytes + at, bytes + at + 8);
      }
    }
    s.chunk_first = s.next;
  }
  const double* r = &s.chunk[(s.next - s.chunk_first) * width];
  for (int i = 0; i < s.width; ++i) {
    // Chances are probabilities (rounding may leave them a hair outside);
    // error bounds are non-negative (infinite for a cycle that did not converge).
    const bool is_error = i == s.header.identity.players;
    if (std::isnan(r[i]) || (is_error ? r[i] < 0 : (r[i] < -1e-9 || r[i] > 1 + 1e-9))) {
      return s.failed =
                 s.Corrupt(absl::StrFormat("record %d of context %u is %g", i, s.next, r[i]));
    }
  }
  std::copy(r, r + s.width, record);
  ++s.next;
  return absl::OkStatus();
}

absl::Status CheckpointReader::Finish() {
  State& s = *state_;
  if (!s.failed.ok()) return s.failed;
  if (s.next != s.contexts) {
    return s.failed = absl::InternalError(absl::StrFormat(
               "checkpoint %s: %u of its %u contexts read", s.path, s.next, s.contexts));
  }
  const std::uint32_t computed = s.in->crc();
  unsigned char tail[kCrcSize];
  if (!ReadExactly(*s.in, reinterpret_cast<char*>(tail), kCrcSize)) {
    return s.failed = s.Corrupt("unreadable (its checksum)");
  }
  const std::uint32_t stored =
      tail[0] | (tail[1] << 8) | (tail[2] << 16) | (static_cast<std::uint32_t>(tail[3]) << 24);
  if (stored != computed) {
    return s.failed = s.Corrupt(
               absl::StrFormat("checksum mismatch (stored %08x, computed %08x)", stored, computed));
  }
  return absl::OkStatus();
}

namespace {

// The whole checkpoint `reader` reads: its header, then every record.
absl::StatusOr<Checkpoint> ReadAll(absl::StatusOr<std::unique_ptr<CheckpointReader>> reader) {
  if (!reader.ok()) return reader.status();
  CheckpointReader& r = **reader;
  try {
    Checkpoint c = r.header();
    const int width = CheckpointRecordWidth(c.identity.players);
    c.records.resize(r.contexts() * width);  // the size is checked against the file's
    for (std::uint64_t k = 0; k < r.contexts(); ++k) {
      if (absl::Status status = r.Next(&c.records[k * width]); !status.ok()) return status;
    }
    if (absl::Status status = r.Finish(); !status.ok()) return status;
    return c;
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("checkpoint %s: out of memory reading it", r.path()));
  }
}

}  // namespace

absl::StatusOr<Checkpoint> ParseCheckpoint(std::string_view bytes, const std::string& path,
                                           const CheckpointIdentity& expected) {
  return ReadAll(CheckpointReader::OpenBytes(bytes, path, expected));
}

absl::StatusOr<Checkpoint> ReadCheckpoint(const std::string& path,
                                          const CheckpointIdentity& expected,
                                          std::uint64_t max_size) {
  return ReadAll(CheckpointReader::Open(path, expected, max_size));
}

SolveFile SolveFileAt(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  if (!in.read(head, sizeof head)) return SolveFile::kNone;
  const std::string_view bytes(head, sizeof head);
  if (bytes == internal::kTableMagic) return SolveFile::kTable;
  if (bytes == std::string_view(kMagic, sizeof kMagic)) return SolveFile::kCheckpoint;
  return SolveFile::kNone;
}

}  // namespace martiandice::solver
