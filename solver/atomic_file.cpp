// Atomic file writes (atomic_file.h): temporary, write, fsync, rename.
#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace martiandice::solver {

namespace {

// What a file of mode `mode` is, for a message ("a FIFO"); "" for a regular file.
const char* KindOf(mode_t mode) {
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// WriteFileAtomically's temporary for `path`, created and open (*fd): mode
// 0644 less the user's umask (mkstemp's 0600 would need a chmod that ignores
// it), under a name no file has (O_EXCL), tried again while one has.
absl::Status CreateTemporary(const std::string& path, std::string* temp, int* fd) {
  static std::atomic<std::uint64_t> serial{0};
  std::uint64_t seed =
      static_cast<std::uint64_t>(getpid()) << 32 ^
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  for (int attempt = 0; attempt < 100; ++attempt) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL + serial++;
    *temp = absl::StrFormat("%s.tmp.%06x", path, (seed >> 40) & 0xffffff);
    *fd = open(temp->c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (*fd >= 0) return absl::OkStatus();
    if (errno != EEXIST) break;
  }
  return absl::PermissionDeniedError(
      absl::StrFormat("cannot create a temporary file next to %s: %s", path, std::strerror(errno)));
}

}  // namespace

absl::Status CheckReplaceable(const std::string& path) {
  struct stat info;
  if (lstat(path.c_str(), &info) != 0) {
    const int err = errno;
    if (err == ENOENT) return absl::OkStatus();
    const std::string why = absl::StrFormat("cannot check %s: %s", path, std::strerror(err));
    if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(why);
    if (err == ENOTDIR) return absl::NotFoundError(why);
    return absl::FailedPreconditionError(why);
  }
  const char* kind = KindOf(info.st_mode);
  if (*kind == '\0') return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrFormat(
      "%s is %s: only a regular file or a new path is written, anything else is left alone", path,
      kind));
}

absl::Status CheckWritable(const std::string& path) {
  if (absl::Status status = CheckReplaceable(path); !status.ok()) return status;
  std::string temp;
  int fd = -1;
  if (absl::Status status = CreateTemporary(path, &temp, &fd); !status.ok()) return status;
  close(fd);
  std::remove(temp.c_str());
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<AtomicFileWriter>> AtomicFileWriter::Create(
    const std::string& path) {
  if (absl::Status status = CheckReplaceable(path); !status.ok()) return status;
  std::string temp;
  int fd = -1;
  if (absl::Status status = CreateTemporary(path, &temp, &fd); !status.ok()) return status;
  return std::unique_ptr<AtomicFileWriter>(new AtomicFileWriter(path, std::move(temp), fd));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) std::remove(temp_.c_str());
}

absl::Status AtomicFileWriter::Fail(const char* what) {
  const int err = errno;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  std::remove(temp_.c_str());
  const std::string temp = std::exchange(temp_, "");
  return absl::DataLossError(absl::StrFormat("%s %s failed: %s (%s left unchanged)", what, temp,
                                             std::strerror(err), path_));
}

bool WriteAllAt(int fd, std::string_view bytes, std::uint64_t offset) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        pwrite(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

absl::Status AtomicFileWriter::WriteAt(std::uint64_t offset, std::string_view bytes) {
  if (fd_ < 0) return absl::FailedPreconditionError(absl::StrCat(path_, ": writer closed"));
  if (!WriteAllAt(fd_, bytes, offset)) return Fail("writing");
  end_ = std::max<std::uint64_t>(end_, offset + bytes.size());
  return absl::OkStatus();
}

absl::Status AtomicFileWriter::Append(std::string_view bytes) { return WriteAt(end_, bytes); }

absl::Status AtomicFileWriter::Commit() {
  if (fd_ < 0) return absl::FailedPreconditionError(absl::StrCat(path_, ": writer closed"));
  if (fsync(fd_) != 0) return Fail("syncing");
  const int fd = std::exchange(fd_, -1);
  if (close(fd) != 0) {
    const int err = errno;
    std::remove(temp_.c_str());
    temp_.clear();
    return absl::DataLossError(absl::StrFormat("closing %s failed: %s", path_, std::strerror(err)));
  }
  if (absl::Status status = CheckReplaceable(path_); !status.ok()) return status;  // temp removed
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    return absl::PermissionDeniedError(
        absl::StrFormat("renaming %s to %s failed: %s", temp_, path_, std::strerror(err)));
  }
  temp_.clear();  // published: nothing to remove
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  absl::StatusOr<std::unique_ptr<AtomicFileWriter>> writer = AtomicFileWriter::Create(path);
  if (!writer.ok()) return writer.status();
  if (absl::Status status = (*writer)->Append(bytes); !status.ok()) return status;
  return (*writer)->Commit();
}

}  // namespace martiandice::solver
