// GameTable's loading and inspection (martiandice/table.h): a table file is
// checked header first (its declared size against the file's, so a large
// file that is no table is refused after reading 128 bytes), then read whole
// and parsed by the format module (table_format.h).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "file_kind.h"
#include "martiandice/table.h"
#include "table_format.h"

namespace martiandice {
namespace internal {
namespace {

absl::Status OpenError(const std::string& path, int error) {
  std::string why = absl::StrFormat("cannot read policy table %s: %s", path, std::strerror(error));
  if (error == ENOENT || error == ENOTDIR) return absl::NotFoundError(why);
  if (error == EACCES || error == EPERM) return absl::PermissionDeniedError(why);
  return absl::UnavailableError(why);
}

// Checks that `path` is a regular file of at most kMaxTableFileSize bytes;
// returns its size. Anything else is named as what it is (file_kind.h).
absl::StatusOr<std::uint64_t> CheckFile(const std::string& path) {
  const FileKind kind = InspectPath(path);
  switch (kind.type) {
    case FileKind::Type::kRegular:
      break;
    case FileKind::Type::kMissing:
      return OpenError(path, ENOENT);
    case FileKind::Type::kDirectory:
      return absl::InvalidArgumentError(
          absl::StrFormat("policy table path %s is a directory, not a file", path));
    case FileKind::Type::kOther:
      if (kind.error == EACCES || kind.error == EPERM) {
        return absl::PermissionDeniedError(
            absl::StrFormat("cannot read policy table %s: it is %s", path, kind.what));
      }
      return absl::InvalidArgumentError(
          absl::StrFormat("policy table path %s is not a regular file: it is %s", path, kind.what));
  }
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return OpenError(path, ec.value());
  if (size > kMaxTableFileSize) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "policy table %s is %d bytes, larger than 1 GiB: far beyond any table this library "
        "reads",
        path, size));
  }
  return static_cast<std::uint64_t>(size);
}

// Reads up to `count` more bytes of `file` onto the end of `bytes`.
absl::Status ReadMore(std::FILE* file, const std::string& path, size_t count, std::string& bytes) {
  const size_t before = bytes.size();
  bytes.resize(before + count);
  bytes.resize(before + std::fread(bytes.data() + before, 1, count, file));
  if (std::ferror(file)) return OpenError(path, errno);
  return absl::OkStatus();
}

// The whole file once its header has announced exactly its size: memory for
// a refused file stays at the header's 128 bytes whatever its size.
absl::StatusOr<std::string> ReadTableFile(const std::string& path, const std::string& source) {
  absl::StatusOr<std::uint64_t> size = CheckFile(path);
  if (!size.ok()) return size.status();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return OpenError(path, errno);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);
  std::string bytes;
  if (absl::Status s = ReadMore(file, path, kTableHeaderSize, bytes); !s.ok()) return s;
  if (absl::Status s = CheckTableHeader(bytes, *size, source); !s.ok()) return s;
  // Fewer bytes if the file shrank since (the parser then finds it truncated).
  if (absl::Status s = ReadMore(file, path, *size - bytes.size(), bytes); !s.ok()) return s;
  if (bytes.size() == *size && std::fgetc(file) != EOF) {
    return absl::DataLossError(
        absl::StrFormat("policy table %s grew while being read (it had %d bytes)", path, *size));
  }
  return bytes;
}

}  // namespace
}  // namespace internal

absl::StatusOr<GameTable> GameTable::Open(const std::string& path) {
  const std::string source = absl::StrCat("policy table ", path);
  absl::StatusOr<std::string> bytes = internal::ReadTableFile(path, source);
  if (!bytes.ok()) return bytes.status();
  auto data = internal::ParseTable(*bytes, source);
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

absl::StatusOr<GameTable> GameTable::FromBytes(std::string_view bytes) {
  auto data = internal::ParseTable(bytes, "policy table");
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

const Rules& GameTable::rules() const { return data_->rules; }
int GameTable::players() const { return data_->players; }
double GameTable::error_bound() const { return data_->error_bound; }
int GameTable::format_version() const { return data_->format_version; }
int GameTable::tie_tolerance_exponent() const { return data_->tie_tolerance_e; }
std::int64_t GameTable::context_count() const { return data_->context_count(); }

absl::StatusOr<GameTable::ContextRecord> GameTable::Context(std::int64_t index) const {
  const internal::TableData& d = *data_;
  if (index < 0 || index >= d.context_count()) {
    return absl::OutOfRangeError(
        absl::StrFormat("context %d is out of range 0..%d", index, d.context_count() - 1));
  }
  ContextRecord record;
  record.context.scores.assign(d.players, 0);
  record.context.seat = d.contexts.Decode(index, record.context.scores.data());
  const std::span<const double> win = d.Win(index);
  record.win_probabilities.assign(win.begin(), win.end());
  return record;
}

}  // namespace martiandice
