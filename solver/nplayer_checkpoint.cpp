// The N-player checkpoint file: serialisation, atomic-write-ready bytes and
// a defensive parser (docs/PLAYERS.md, "Checkpoints").
#include "nplayer_checkpoint.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_format.h"
#include "martiandice/game.h"
#include "crc32.h"
#include "table_format.h"

namespace martiandice::solver {
namespace {

constexpr char kMagic[8] = {'M', 'D', 'N', 'C', 'K', 'P', 'T', '\0'};
constexpr std::uint32_t kFormatVersion = 2;
constexpr size_t kHeaderSize = 160;
constexpr size_t kCrcSize = 4;

void PutU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutF64(std::string& out, double v) { PutU64(out, std::bit_cast<std::uint64_t>(v)); }

std::uint32_t GetU32(std::string_view b, size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(b[at + i]);
  return v;
}
std::uint64_t GetU64(std::string_view b, size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(b[at + i]);
  return v;
}
double GetF64(std::string_view b, size_t at) { return std::bit_cast<double>(GetU64(b, at)); }

std::uint64_t IdentityHash(const CheckpointIdentity& identity) {
  return internal::Fnv1a64(CheckpointIdentityString(identity));
}

}  // namespace

std::string CheckpointIdentityString(const CheckpointIdentity& id) {
  return absl::StrFormat("dice=%d bonus=%d target=%d players=%d arithmetic=%s solver=v%u levels=%u",
                         id.rules.dice, id.rules.bonus, id.rules.target, id.players,
                         id.extended ? "extended" : "double", id.solver_version, id.levels);
}

std::uint64_t CheckpointSize(std::uint64_t contexts, int players) {
  return kHeaderSize + contexts * (static_cast<std::uint64_t>(players) + 1) * 8 + kCrcSize;
}

std::string SerializeCheckpoint(const NPlayerCheckpoint& c) {
  const std::uint64_t contexts = c.records.size() / (static_cast<size_t>(c.identity.players) + 1);
  std::string out = BeginCheckpoint(c, contexts);
  AppendCheckpointValues(out, c.records.data(), c.records.size());
  FinishCheckpoint(out);
  return out;
}

std::string BeginCheckpoint(const NPlayerCheckpoint& c, std::uint64_t contexts) {
  const CheckpointIdentity& id = c.identity;
  std::string out;
  out.reserve(CheckpointSize(contexts, id.players));
  out.append(kMagic, sizeof kMagic);
  PutU32(out, kFormatVersion);
  PutU32(out, id.solver_version);
  PutU32(out, static_cast<std::uint32_t>(id.rules.dice));
  PutU32(out, static_cast<std::uint32_t>(id.rules.bonus));
  PutU32(out, static_cast<std::uint32_t>(id.rules.target));
  PutU32(out, static_cast<std::uint32_t>(id.players));
  PutU32(out, id.extended ? 2 : 1);
  PutU32(out, id.levels);
  PutU64(out, IdentityHash(id));
  PutU32(out, c.levels_done);
  PutU32(out, c.counters.max_rounds);
  PutU64(out, c.vectors_done);
  PutU64(out, contexts);
  PutU64(out, c.counters.turn_solves);
  PutU64(out, c.counters.cycles);
  PutU64(out, c.counters.rounds);
  PutU64(out, c.counters.tied);
  PutU64(out, c.counters.kingmaking);
  PutU64(out, c.counters.kingmaking_contexts);
  PutF64(out, c.counters.max_residual);
  PutF64(out, c.counters.error_bound);
  PutF64(out, c.seconds);
  PutU64(out, c.counters.mixed_cycles);
  PutF64(out, c.counters.mixing_error);
  return out;
}

void AppendCheckpointValues(std::string& out, const double* values, size_t count) {
  if constexpr (std::endian::native == std::endian::little) {
    out.append(reinterpret_cast<const char*>(values), count * sizeof(double));
  } else {
    for (size_t i = 0; i < count; ++i) PutF64(out, values[i]);
  }
}

void FinishCheckpoint(std::string& out) { PutU32(out, internal::Crc32(out)); }

absl::StatusOr<NPlayerCheckpoint> ParseCheckpoint(std::string_view b, const std::string& path,
                                                  const CheckpointIdentity& expected) {
  auto corrupt = [&](const std::string& what) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %s; delete it to start the solve over", path, what));
  };
  if (b.size() < kHeaderSize + kCrcSize) {
    return corrupt(absl::StrFormat("truncated (%u bytes, a checkpoint has at least %u)", b.size(),
                                   kHeaderSize + kCrcSize));
  }
  if (std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) {
    return corrupt("not a martiandice N-player checkpoint (bad magic)");
  }
  if (const std::uint32_t version = GetU32(b, 8); version != kFormatVersion) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "checkpoint %s has format version %u, this build reads version %u; delete it to start "
        "the solve over",
        path, version, kFormatVersion));
  }
  NPlayerCheckpoint c;
  CheckpointIdentity& id = c.identity;
  id.solver_version = GetU32(b, 12);
  const std::uint32_t dice = GetU32(b, 16), bonus = GetU32(b, 20), target = GetU32(b, 24);
  const std::uint32_t players = GetU32(b, 28), arithmetic = GetU32(b, 32);
  id.levels = GetU32(b, 36);
  if (dice > 1000 || bonus > 1000 || target > 100000 || players < kMinPlayers ||
      players > kMaxPlayers || (arithmetic != 1 && arithmetic != 2)) {
    return corrupt(absl::StrFormat(
        "header out of range (dice %u, bonus %u, target %u, players %u, arithmetic %u)", dice,
        bonus, target, players, arithmetic));
  }
  id.rules.dice = static_cast<int>(dice);
  id.rules.bonus = static_cast<int>(bonus);
  id.rules.target = static_cast<int>(target);
  id.players = static_cast<int>(players);
  id.extended = arithmetic == 2;
  // Every count is checked against the bytes there before anything is sized by it.
  const std::uint64_t contexts = GetU64(b, 64);
  const std::uint64_t per_context = (players + 1) * 8;
  const std::uint64_t room = (b.size() - kHeaderSize - kCrcSize) / per_context;
  if (contexts > room) {
    return corrupt(absl::StrFormat("truncated (%u bytes, its header announces %u contexts)",
                                   b.size(), contexts));
  }
  if (CheckpointSize(contexts, id.players) != b.size()) {
    return corrupt(absl::StrFormat("%u bytes where its %u contexts take %u", b.size(), contexts,
                                   CheckpointSize(contexts, id.players)));
  }
  const std::string_view body = b.substr(0, b.size() - kCrcSize);
  if (const std::uint32_t stored = GetU32(b, b.size() - kCrcSize), computed = internal::Crc32(body);
      stored != computed) {
    return corrupt(
        absl::StrFormat("checksum mismatch (stored %08x, computed %08x)", stored, computed));
  }
  if (GetU64(b, 40) != IdentityHash(id)) return corrupt("identity hash mismatch");
  if (id.rules != expected.rules || id.players != expected.players ||
      id.extended != expected.extended || id.solver_version != expected.solver_version ||
      id.levels != expected.levels) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "checkpoint %s belongs to another solve (%s) than this one (%s); delete it or give "
        "another checkpoint file",
        path, CheckpointIdentityString(id), CheckpointIdentityString(expected)));
  }
  c.levels_done = GetU32(b, 48);
  c.counters.max_rounds = GetU32(b, 52);
  c.vectors_done = GetU64(b, 56);
  if (c.levels_done > id.levels || (c.levels_done == id.levels && c.vectors_done > 0)) {
    return corrupt(absl::StrFormat("%u levels done (and %u score vectors) of %u", c.levels_done,
                                   c.vectors_done, id.levels));
  }
  c.counters.turn_solves = GetU64(b, 72);
  c.counters.cycles = GetU64(b, 80);
  c.counters.rounds = GetU64(b, 88);
  c.counters.tied = GetU64(b, 96);
  c.counters.kingmaking = GetU64(b, 104);
  c.counters.kingmaking_contexts = GetU64(b, 112);
  c.counters.max_residual = GetF64(b, 120);
  c.counters.error_bound = GetF64(b, 128);
  c.seconds = GetF64(b, 136);
  c.counters.mixed_cycles = GetU64(b, 144);
  c.counters.mixing_error = GetF64(b, 152);
  c.records.resize(contexts * (players + 1));
  for (size_t i = 0; i < c.records.size(); ++i) {
    const double v = GetF64(b, kHeaderSize + 8 * i);
    // Chances are probabilities (rounding may leave them a hair outside);
    // error bounds are non-negative (infinite for a cycle that did not converge).
    const bool is_error = i % (players + 1) == players;
    if (std::isnan(v) || (is_error ? v < 0 : (v < -1e-9 || v > 1 + 1e-9))) {
      return corrupt(absl::StrFormat("record %u of context %u is %g", i % (players + 1),
                                     i / (players + 1), v));
    }
    c.records[i] = v;
  }
  return c;
}

absl::StatusOr<NPlayerCheckpoint> ReadCheckpoint(const std::string& path,
                                                 const CheckpointIdentity& expected,
                                                 std::uint64_t max_size) {
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
  if (size > max_size) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %u bytes, more than this solve's checkpoint can take (%u); "
        "delete it to start the solve over",
        path, size, max_size));
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return absl::PermissionDeniedError(absl::StrFormat("cannot read checkpoint %s", path));
  }
  return ParseCheckpoint(bytes, path, expected);
}

}  // namespace martiandice::solver
