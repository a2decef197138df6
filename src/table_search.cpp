// Where tables are (martiandice/table.h): the table file name and the command
// that makes it, the search for a table (explicit path, $MARTIANDICE_DATA, the
// data directory of the installed tree the running code belongs to, the
// source tree's data/, the configured installed data directory). Reading a
// table is table.cpp's.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "file_kind.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"

#if defined(__linux__)
#include <link.h>
#endif

namespace martiandice {
namespace {

namespace fs = std::filesystem;

bool IsFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// A table looked for at `location`: a file is taken as is; a directory must
// hold `name`. Else why not, and where `solve --out` would put the table.
struct Lookup {
  std::optional<std::string> path;  // the table file
  bool directory = false;           // `location` is a directory
  bool missing = true;              // nothing there (NotFound); else something unusable is
  std::string why;                  // "no NAME there", "no such file"; or "a FIFO (named pipe)"
  std::string unusable;             // the path that is `why` (not missing)
  int error = 0;                    // stat's errno for `unusable`, if it failed
  std::string out;
};

Lookup LookIn(const std::string& location, const std::string& name) {
  using internal::FileKind;
  const FileKind kind = internal::InspectPath(location);
  Lookup lookup;
  lookup.out = location;
  if (kind.type == FileKind::Type::kRegular) {
    lookup.path = location;
  } else if (kind.type == FileKind::Type::kDirectory) {
    lookup.directory = true;
    lookup.out = (fs::path(location) / name).string();
    const FileKind inside = internal::InspectPath(lookup.out);
    if (inside.type == FileKind::Type::kRegular) {
      lookup.path = lookup.out;
    } else if (inside.type == FileKind::Type::kMissing) {
      lookup.why = absl::StrFormat("no %s there", name);
    } else {
      lookup.missing = false;
      lookup.why = inside.what;
      lookup.error = inside.error;
      lookup.unusable = lookup.out;
    }
  } else if (kind.type == FileKind::Type::kMissing) {
    lookup.why = kind.what == "missing" ? "no such file" : kind.what;
  } else {
    lookup.missing = false;
    lookup.why = kind.what;
    lookup.error = kind.error;
    lookup.unusable = location;
  }
  return lookup;
}

// A location that is there but cannot hold a table (InvalidArgument):
// "WHERE is a FIFO (named pipe): ..."; or that the system does not let us look
// at (PermissionDenied, as GameTable::Open; Unavailable for EIO and the like).
absl::Status Unusable(const std::string& where, const Lookup& lookup, const std::string& name) {
  if (lookup.error == EACCES || lookup.error == EPERM) {
    return absl::PermissionDeniedError(absl::StrFormat("%s is %s", where, lookup.why));
  }
  if (lookup.error != 0 && lookup.error != ELOOP && lookup.error != ENOTDIR) {
    return absl::UnavailableError(absl::StrFormat("%s is %s", where, lookup.why));
  }
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s is %s: give a policy table file, or a directory holding %s", where, lookup.why, name));
}

// "26 KiB", "1.1 MiB", "116 MiB", "6.2 GiB".
std::string SizeText(std::uint64_t bytes) {
  const double kib = static_cast<double>(bytes) / 1024;
  if (kib < 1024) return absl::StrFormat("%.0f KiB", std::max(1.0, kib));
  const double mib = kib / 1024;
  if (mib < 100) return absl::StrFormat("%.1f MiB", mib);
  if (mib < 1024) return absl::StrFormat("%.0f MiB", mib);
  return absl::StrFormat("%.1f GiB", mib / 1024);
}

// How long a solve on one machine takes, by the table's size (3.5 to 5.3 s a
// MiB on 2 cores: 3 players to 20 in 5 s, to 43 in 41 s, 4 players to 25 in
// 413 s): "seconds" up to 8 MiB, "minutes" up to 256 MiB, else "hours".
const char* SolveTimeWord(std::uint64_t bytes) {
  if (bytes <= kQuickTableBytes) return "seconds";
  return bytes <= (std::uint64_t{256} << 20) ? "minutes" : "hours";
}

// `out`: where the command it gives writes the table; `then`: what to do with
// it after, where `out` is not a place searched.
absl::Status NotFound(const Rules& rules, int players, const std::string& looked,
                      const std::string& out, const char* then = "") {
  // A table too large for one machine is made by processes sharing it.
  const int processes = TableSolveProcesses(rules, players);
  const std::uint64_t bytes = TableBytes(rules, players);
  const std::string how =
      processes == 1
          ? absl::StrFormat("(a table of %s: %s)", SizeText(bytes), SolveTimeWord(bytes))
          : absl::StrFormat(
                "on a cluster (the table takes %s, more than the %d GiB one machine makes: "
                "%d processes at least; docs/SCALING.md, \"On a cluster\", sizes the machines)",
                SizeText(bytes), kMaxTableBytes >> 30, processes);
  return absl::NotFoundError(absl::StrFormat(
      "no policy table %s for %d players (%s); looked in %s. Generate it with `%s` %s%s",
      TableFileName(rules, players), players, RulesText(rules), looked,
      TableSolveCommand(rules, players, out), how, then));
}

#if defined(__linux__)
// dl_iterate_phdr visitor: finds the loaded object (executable or shared
// library) whose segments hold `address`; the executable comes first.
struct ObjectSearch {
  std::uintptr_t address = 0;
  int index = 0;
  bool found = false;
  bool executable = false;
  std::string name;
};

int VisitObject(dl_phdr_info* info, std::size_t /*size*/, void* data) {
  auto* search = static_cast<ObjectSearch*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD) continue;
    const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
    if (search->address >= start && search->address < start + segment.p_memsz) {
      search->found = true;
      search->executable = search->index == 0;
      search->name = info->dlpi_name != nullptr ? info->dlpi_name : "";
      return 1;
    }
  }
  ++search->index;
  return 0;
}
#endif

// Whether `dir` is the build tree or inside it (not an installed tree).
bool InBuildTree(const fs::path& dir) {
#if defined(MARTIANDICE_BUILD_DIR)
  const std::string build = fs::path(MARTIANDICE_BUILD_DIR).lexically_normal().string();
  const std::string path = dir.lexically_normal().string();
  return path.compare(0, build.size(), build) == 0 &&
         (path.size() == build.size() || path[build.size()] == '/');
#else
  (void)dir;
  return false;
#endif
}

// The data directory of the installed tree this code runs from, so that an
// installed prefix finds its tables wherever it was installed or moved
// (`cmake --install --prefix`): <shared library's
// directory>/MARTIANDICE_LIB_TO_DATA when the code is in libmartiandice.so (or
// libmartiandice_c.so), <executable's directory>/MARTIANDICE_BIN_TO_DATA when
// a static library is linked into an executable. Unset if unknown, or when
// the code runs from the build tree.
std::optional<fs::path> RelocatedDataDir() {
#if defined(__linux__) && defined(MARTIANDICE_BIN_TO_DATA) && defined(MARTIANDICE_LIB_TO_DATA)
  ObjectSearch search;
  search.address = reinterpret_cast<std::uintptr_t>(&RelocatedDataDir);
  dl_iterate_phdr(VisitObject, &search);
  if (!search.found) return std::nullopt;
  std::error_code ec;
  if (search.executable) {
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty() || InBuildTree(exe.parent_path())) return std::nullopt;
    return (exe.parent_path() / MARTIANDICE_BIN_TO_DATA).lexically_normal();
  }
  if (search.name.empty()) return std::nullopt;
  const fs::path library = fs::absolute(search.name, ec);
  if (ec || InBuildTree(library.parent_path())) return std::nullopt;
  return (library.parent_path() / MARTIANDICE_LIB_TO_DATA).lexically_normal();
#else
  return std::nullopt;
#endif
}

// The directories of the default search (without $MARTIANDICE_DATA), in order.
std::vector<std::string> DefaultDataDirs() {
  static const std::optional<fs::path> relocated = RelocatedDataDir();
  std::vector<std::string> dirs;
  if (relocated) dirs.push_back(relocated->string());
  for (const char* dir : {MARTIANDICE_SOURCE_DATA_DIR, MARTIANDICE_INSTALL_DATA_DIR}) {
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

}  // namespace

std::vector<std::string> TableSearchPath() {
  if (const char* env = std::getenv("MARTIANDICE_DATA"); env != nullptr && *env != '\0') {
    return {env};
  }
  return DefaultDataDirs();
}

std::string TableFileName(const Rules& rules, int players) {
  return absl::StrFormat("martiandice-p%d-d%d-b%d-t%d.mdt", players, rules.dice, rules.bonus,
                         rules.target);
}

std::string TableSolveCommand(const Rules& rules, int players, const std::string& out) {
  std::string command;
  if (const int processes = TableSolveProcesses(rules, players); processes > 1) {
    command = absl::StrFormat("mpirun -np %d ", processes);
  }
  absl::StrAppend(&command, "martiandice solve --players ", players);
  const Rules official;
  if (rules.dice != official.dice) absl::StrAppend(&command, " --dice ", rules.dice);
  if (rules.bonus != official.bonus) absl::StrAppend(&command, " --bonus ", rules.bonus);
  if (rules.target != official.target) absl::StrAppend(&command, " --target ", rules.target);
  absl::StrAppend(&command, " --out ",
                  ShellWord(out.empty() ? TableFileName(rules, players) : out));
  return command;
}

std::string ShellWord(const std::string& path) {
  const std::string word = path.size() > 1 && path[0] == '-' ? "./" + path : path;
  const bool safe = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) ||
           (c != '\0' && std::strchr("/._-+,:=@%", c) != nullptr);
  });
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

absl::StatusOr<std::string> LocateTable(const Rules& rules, int players,
                                        const std::optional<std::string>& explicit_path) {
  // No table can hold a game out of range: no `solve` command to give either.
  if (absl::Status status = ValidateRules(rules); !status.ok()) return status;
  if (absl::Status status = ValidatePlayers(players); !status.ok()) return status;
  const std::string name = TableFileName(rules, players);
  if (explicit_path) {
    const Lookup lookup = LookIn(*explicit_path, name);
    if (lookup.path) return *lookup.path;
    if (!lookup.missing) {
      return Unusable(absl::StrCat("policy table path ", lookup.unusable), lookup, name);
    }
    return NotFound(rules, players,
                    lookup.directory
                        ? absl::StrFormat("directory %s (%s)", *explicit_path, lookup.why)
                        : absl::StrFormat("%s (%s)", *explicit_path, lookup.why),
                    lookup.out);
  }
  const std::vector<std::string> dirs = DefaultDataDirs();
  // $MARTIANDICE_DATA, when set, is the only place searched: a table that is
  // not there is not looked for elsewhere.
  if (const char* env = std::getenv("MARTIANDICE_DATA"); env != nullptr && *env != '\0') {
    const Lookup lookup = LookIn(env, name);
    if (lookup.path) return *lookup.path;
    if (!lookup.missing) {
      return Unusable(lookup.unusable == env
                          ? absl::StrCat("$MARTIANDICE_DATA=", env)
                          : absl::StrCat("$MARTIANDICE_DATA's ", lookup.unusable),
                      lookup, name);
    }
    return NotFound(rules, players,
                    absl::StrFormat("$MARTIANDICE_DATA=%s (%s; nothing else is searched while it "
                                    "is set; unset, the search is %s)",
                                    env, lookup.why, absl::StrJoin(dirs, ", ")),
                    lookup.out);
  }
  for (const std::string& dir : dirs) {
    if (IsFile(fs::path(dir) / name)) return (fs::path(dir) / name).string();
  }
  return NotFound(
      rules, players, absl::StrCat("$MARTIANDICE_DATA (unset), ", absl::StrJoin(dirs, ", ")), name,
      " and give its path (the command line's --tables) or set $MARTIANDICE_DATA to it");
}

}  // namespace martiandice
