// GameTable's loading and inspection (martiandice/table.h): a table file is
// checked header first (its declared size against the file's, so a large
// file that is no table is refused after reading 128 bytes), then read whole
// or, past kEagerTableBytes, mapped, and handed to the format module
// (table_format.h).
#include "martiandice/table.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "file_kind.h"
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

// Checks that `path` is a regular file; returns its size. Anything else is named as what it is
// (file_kind.h).
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
  return static_cast<std::uint64_t>(size);
}

// The size of the file open as `fd`, not of its path a moment before (the
// path may have been renamed over since): a map past the file's end would
// fault on first touch.
absl::StatusOr<std::uint64_t> OpenedSize(int fd, const std::string& path) {
  struct stat opened;
  if (fstat(fd, &opened) != 0) return OpenError(path, errno);
  return static_cast<std::uint64_t>(opened.st_size);
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
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return OpenError(path, errno);
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> closer(file, &std::fclose);
  absl::StatusOr<std::uint64_t> opened = OpenedSize(fileno(file), path);
  if (!opened.ok()) return opened.status();
  const std::uint64_t size = *opened;
  // Only where size_t is narrower (WebAssembly, which reads every table whole).
  if (size > std::string().max_size()) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "policy table %s (%d bytes) is too large to read into memory here", path, size));
  }
  std::string bytes;
  if (absl::Status s = ReadMore(file, path, kTableHeaderSize, bytes); !s.ok()) return s;
  if (absl::Status s = CheckTableHeader(bytes, size, source); !s.ok()) return s;
  // Fewer bytes if the file shrank since (the parser then finds it truncated).
  if (absl::Status s = ReadMore(file, path, size - bytes.size(), bytes); !s.ok()) return s;
  if (bytes.size() == size && std::fgetc(file) != EOF) {
    return absl::DataLossError(
        absl::StrFormat("policy table %s grew while being read (it had %d bytes)", path, size));
  }
  return bytes;
}

// A file mapped, unmapped with its last user.
class MappedFile final : public TableFile {
 public:
  MappedFile(void* address, size_t size) : address_(address), size_(size) {}
  ~MappedFile() override { munmap(address_, size_); }
  std::string_view bytes() const override { return {static_cast<const char*>(address_), size_}; }

 private:
  void* address_;
  size_t size_;
};

// The file mapped once its header (read first) has announced exactly its size.
absl::StatusOr<std::shared_ptr<const TableFile>> MapTableFile(const std::string& path,
                                                              const std::string& source) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return OpenError(path, errno);
  std::unique_ptr<int, void (*)(int*)> closer(new int(fd), [](int* f) {
    close(*f);
    delete f;
  });
  absl::StatusOr<std::uint64_t> size = OpenedSize(fd, path);
  if (!size.ok()) return size.status();
  std::string header(kTableHeaderSize, '\0');
  const ssize_t got = pread(fd, header.data(), header.size(), 0);
  if (got < 0) return OpenError(path, errno);
  header.resize(static_cast<size_t>(got));
  if (absl::Status s = CheckTableHeader(header, *size, source); !s.ok()) return s;
  if (*size > std::numeric_limits<size_t>::max()) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("policy table %s (%d bytes) is too large to map here", path, *size));
  }
  void* address = mmap(nullptr, static_cast<size_t>(*size), PROT_READ, MAP_SHARED, fd, 0);
  if (address == MAP_FAILED) {
    const int error = errno;
    if (error == ENOMEM) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "cannot map policy table %s (%d bytes): %s", path, *size, std::strerror(error)));
    }
    return OpenError(path, error);
  }
  return std::shared_ptr<const TableFile>(
      std::make_shared<MappedFile>(address, static_cast<size_t>(*size)));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const TableData>> OpenTable(const std::string& path,
                                                           std::uint64_t eager_bytes) {
  const std::string source = absl::StrCat("policy table ", path);
  absl::StatusOr<std::uint64_t> size = CheckFile(path);
  if (!size.ok()) return size.status();
  if (*size <= eager_bytes) {
    absl::StatusOr<std::string> bytes = ReadTableFile(path, source);
    if (!bytes.ok()) return bytes.status();
    return LoadTable(OwnedTableFile(*std::move(bytes)), source, /*verify_all=*/true);
  }
  absl::StatusOr<std::shared_ptr<const TableFile>> mapped = MapTableFile(path, source);
  if (!mapped.ok()) return mapped.status();
  return LoadTable(*std::move(mapped), source, /*verify_all=*/false);
}

}  // namespace internal

absl::StatusOr<GameTable> GameTable::Open(const std::string& path) {
#ifdef __EMSCRIPTEN__
  constexpr std::uint64_t kEager = std::numeric_limits<std::uint64_t>::max();  // no mapping there
#else
  constexpr std::uint64_t kEager = kEagerTableBytes;
#endif
  auto data = internal::OpenTable(path, kEager);
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

absl::StatusOr<GameTable> GameTable::FromBytes(std::string_view bytes) {
  auto data = internal::LoadTable(internal::OwnedTableFile(std::string(bytes)), "policy table",
                                  /*verify_all=*/true);
  if (!data.ok()) return data.status();
  return GameTable(*std::move(data));
}

absl::Status GameTable::Verify() const { return data_->VerifyAll(); }

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
  if (absl::Status s = d.VerifyContext(index); !s.ok()) return s;
  ContextRecord record;
  record.context.scores.assign(d.players, 0);
  record.context.seat = d.contexts.Decode(index, record.context.scores.data());
  record.win_probabilities.resize(d.players);
  d.Win(index, record.win_probabilities.data());
  return record;
}

}  // namespace martiandice
