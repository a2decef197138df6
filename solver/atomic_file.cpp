// Atomic file writes (atomic_file.h): temporary, write, fsync, rename.
#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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

// WriteFileAtomically's temporary for `path`, created and open (*fd).
absl::Status CreateTemporary(const std::string& path, std::string* temp, int* fd) {
  *temp = path + ".tmp.XXXXXX";
  *fd = mkstemp(temp->data());
  if (*fd >= 0) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrFormat(
      "cannot create a temporary file next to %s: %s", path, std::strerror(errno)));
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

absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  if (absl::Status status = CheckReplaceable(path); !status.ok()) return status;
  std::string temp;
  int fd = -1;
  if (absl::Status status = CreateTemporary(path, &temp, &fd); !status.ok()) return status;
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
  if (absl::Status status = CheckReplaceable(path); !status.ok()) {
    std::remove(temp.c_str());
    return status;
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
