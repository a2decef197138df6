// Policy table serialisation (docs/FORMAT.md, version 1) and atomic file writes.
#include "table_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_format.h"
#include "game_solver.h"
#include "table_data.h"

namespace martiandice::solver {
namespace {

constexpr std::uint32_t kFormatVersion = 1;
constexpr std::uint32_t kHeaderSize = 128;
constexpr std::uint32_t kTieToleranceExponent = 12;

void PutU8(std::string& out, std::uint8_t v) { out.push_back(static_cast<char>(v)); }
void PutU16(std::string& out, std::uint16_t v) {
  for (int i = 0; i < 2; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutU64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void PutF64(std::string& out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  PutU64(out, bits);
}
void SetU32(std::string& out, size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

}  // namespace

std::uint64_t TableRulesHash(const Rules& rules, int players, int version) {
  std::string text =
      version == 2 ? absl::StrFormat(
                         "martiandice-policy v2 dice=%d bonus=%d target=%d players=%d values-only "
                         "ties=stop,rays,most-dice,human-cow-chicken",
                         rules.dice, rules.bonus, rules.target, players)
                   : absl::StrFormat(
                         "martiandice-policy v1 dice=%d bonus=%d target=%d players=%d "
                         "states=canonical-v1",
                         rules.dice, rules.bonus, rules.target, players);
  std::uint64_t hash = 14695981039346656037ull;
  for (char c : text) {
    hash ^= static_cast<std::uint8_t>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string SerializeTable(const TableContents& t) {
  const std::uint64_t contexts = t.block_of.size();
  const std::uint64_t states = t.states.size();
  // Blocks are numbered in order, each used by some context. With no stored
  // state (1 die) they are empty but still counted: every context names one.
  const std::uint64_t blocks =
      states != 0 ? t.rolls.size() / states
      : t.block_of.empty()
          ? 0
          : std::uint64_t{*std::max_element(t.block_of.begin(), t.block_of.end())} + 1;
  const std::uint64_t contexts_size = contexts * (8 * t.players + 8);
  const std::uint64_t states_size = states * 8;
  const std::uint64_t rolls_size = blocks * states * 8;
  std::string out;
  out.reserve(kHeaderSize + contexts_size + states_size + rolls_size);
  out.append("MDPOLICY", 8);
  PutU32(out, kFormatVersion);
  PutU32(out, kHeaderSize);
  PutU32(out, t.rules.dice);
  PutU32(out, t.rules.bonus);
  PutU32(out, t.rules.target);
  PutU32(out, t.players);
  PutU32(out, MaxTurnScore(t.rules));
  PutU32(out, static_cast<std::uint32_t>(states));
  PutU32(out, static_cast<std::uint32_t>(contexts));
  PutU32(out, static_cast<std::uint32_t>(blocks));
  PutU64(out, TableRulesHash(t.rules, t.players));
  PutU64(out, kHeaderSize);
  PutU64(out, contexts_size);
  PutU64(out, kHeaderSize + contexts_size);
  PutU64(out, states_size);
  PutU64(out, kHeaderSize + contexts_size + states_size);
  PutU64(out, rolls_size);
  PutF64(out, t.error_bound);
  PutU32(out, kTieToleranceExponent);
  PutU32(out, 0);  // reserved
  PutU32(out, 0);  // payload CRC, set below
  PutU32(out, 0);  // header CRC, set below
  for (std::uint64_t c = 0; c < contexts; ++c) {
    for (int j = 0; j < t.players; ++j) PutF64(out, t.win[c * t.players + j]);
    PutU32(out, t.block_of[c]);
    PutU32(out, 0);
  }
  for (const auto& s : t.states) {
    for (std::uint8_t v : s) PutU8(out, v);
    PutU16(out, 0);
  }
  if constexpr (std::endian::native == std::endian::little) {
    // The file is little-endian: the doubles' bytes as they are, in one copy.
    out.append(reinterpret_cast<const char*>(t.rolls.data()), t.rolls.size() * sizeof(double));
  } else {
    for (double v : t.rolls) PutF64(out, v);
  }
  const std::string_view bytes = out;
  SetU32(out, 120, internal::Crc32(bytes.substr(kHeaderSize)));
  SetU32(out, 124, internal::Crc32(bytes.substr(0, 124)));
  return out;
}

std::string SerializeValuesTable(const Rules& rules, int players, double error_bound,
                                 const std::vector<double>& win) {
  const std::uint64_t contexts = win.size() / static_cast<std::uint64_t>(players);
  const std::uint64_t contexts_size = contexts * 8 * players;
  const std::uint64_t end = kHeaderSize + contexts_size;
  std::string out;
  out.reserve(end);
  out.append("MDPOLICY", 8);
  PutU32(out, 2);  // format version: values only
  PutU32(out, kHeaderSize);
  PutU32(out, rules.dice);
  PutU32(out, rules.bonus);
  PutU32(out, rules.target);
  PutU32(out, players);
  PutU32(out, MaxTurnScore(rules));
  PutU32(out, 0);  // state_count
  PutU32(out, static_cast<std::uint32_t>(contexts));
  PutU32(out, 0);  // block_count
  PutU64(out, TableRulesHash(rules, players, 2));
  PutU64(out, kHeaderSize);
  PutU64(out, contexts_size);
  PutU64(out, end);  // states_offset: the empty STATES and ROLLS sit at the end
  PutU64(out, 0);
  PutU64(out, end);  // rolls_offset
  PutU64(out, 0);
  PutF64(out, error_bound);
  PutU32(out, kTieToleranceExponent);
  PutU32(out, 0);  // reserved
  PutU32(out, 0);  // payload CRC, set below
  PutU32(out, 0);  // header CRC, set below
  // Rounding can put a value just outside [0, 1] (e.g. -1.1e-16 where the
  // chance is 0); the true value lies inside, so clamping never adds error.
  for (double v : win) PutF64(out, std::clamp(v, 0.0, 1.0));
  const std::string_view bytes = out;
  SetU32(out, 120, internal::Crc32(bytes.substr(kHeaderSize)));
  SetU32(out, 124, internal::Crc32(bytes.substr(0, 124)));
  return out;
}

absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  std::string temp = path + ".tmp.XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrFormat(
        "cannot create a temporary file next to %s: %s", path, std::strerror(errno)));
  }
  auto fail = [&](const char* what) {
    int err = errno;
    close(fd);
    std::remove(temp.c_str());
    return absl::DataLossError(absl::StrFormat("%s %s failed: %s (%s left unchanged)", what, temp,
                                               std::strerror(err), path));
  };
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("writing");
    }
    done += static_cast<size_t>(n);
  }
  if (fchmod(fd, 0644) != 0) return fail("setting permissions of");
  if (fsync(fd) != 0) return fail("syncing");
  if (close(fd) != 0) {
    std::remove(temp.c_str());
    return absl::DataLossError(
        absl::StrFormat("closing %s failed: %s", temp, std::strerror(errno)));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(temp.c_str());
    return absl::PermissionDeniedError(
        absl::StrFormat("renaming %s to %s failed: %s", temp, path, std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace martiandice::solver
