// What is at a path, and a file's identity (file_kind.h).
#include "file_kind.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace martiandice::internal {

FileKind InspectPath(const std::string& path) {
  FileKind kind;
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    kind.error = errno;
    kind.type = FileKind::Type::kOther;
    struct stat link;
    switch (kind.error) {
      case ENOENT:
        kind.type = FileKind::Type::kMissing;
        kind.what = lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)
                        ? "a symbolic link to a missing file"
                        : "missing";
        break;
      case ELOOP:
        kind.what = "a symbolic link loop";
        break;
      case EACCES:
        kind.what = absl::StrCat("unreachable: a folder on its path cannot be searched (",
                                 std::strerror(kind.error), ")");
        break;
      case ENOTDIR:
        kind.what = "unreachable: a part of its path is not a folder";
        break;
      default:
        kind.what = absl::StrCat("unreachable (", std::strerror(kind.error), ")");
    }
    return kind;
  }
  if (S_ISREG(info.st_mode)) {
    kind.type = FileKind::Type::kRegular;
  } else if (S_ISDIR(info.st_mode)) {
    kind.type = FileKind::Type::kDirectory;
    kind.what = "a directory";
  } else {
    kind.type = FileKind::Type::kOther;
    kind.what = S_ISFIFO(info.st_mode)   ? "a FIFO (named pipe)"
                : S_ISCHR(info.st_mode)  ? "a character device"
                : S_ISBLK(info.st_mode)  ? "a block device"
                : S_ISSOCK(info.st_mode) ? "a socket"
                                         : "not a regular file";
  }
  return kind;
}

std::optional<FileIdentity> IdentifyFile(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return std::nullopt;
  return FileIdentity{
      static_cast<std::uint64_t>(info.st_dev), static_cast<std::uint64_t>(info.st_ino),
      static_cast<std::int64_t>(info.st_size),
      static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec};
}

}  // namespace martiandice::internal
