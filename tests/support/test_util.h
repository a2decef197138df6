// Helpers shared by the doctest suites: a temporary directory removed at the
// end of its scope, whole-file reads and writes, the shipped policy tables,
// and solves of tiny games (values or tables). Failures are doctest REQUIREs
// in the calling test case.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "game_solver.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"

namespace test_util {

// Dice in the notation ("2T 3R"); a bad one fails the test case.
inline martiandice::Dice D(const std::string& text) {
  auto dice = martiandice::ParseDice(text);
  REQUIRE_MESSAGE(dice.ok(), text);
  return *dice;
}

// `text` split into its lines (without their "\n").
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Sets an environment variable (unset: nullopt) for the scope, then
// restores it (unset if it was).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old;
    Set(value);
  }
  ~ScopedEnv() { Set(old_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void Set(const std::optional<std::string>& value) {
    if (value) {
      setenv(name_, value->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh directory under the system's temporary directory (mkdtemp: unique,
// also across processes), removed with its contents at the end of the scope.
class TempDir {
 public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "martiandice-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }
  // The path of `name` inside the directory.
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  // The names of the directory's entries, in directory order.
  std::vector<std::string> Files() const {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(path_)) {
      names.push_back(entry.path().filename().string());
    }
    return names;
  }

 private:
  std::filesystem::path path_;
};

// The file's bytes (empty if it cannot be read).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Replaces the file's contents with `bytes` (not atomically: tests only).
inline void WriteFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

#ifdef MARTIANDICE_DATA_DIR
// The shipped policy table of the official rules for `players` (data/).
inline martiandice::GameTable ShippedTable(int players = 2) {
  auto path =
      martiandice::LocateTable(martiandice::Rules{}, players, std::string(MARTIANDICE_DATA_DIR));
  REQUIRE(path.ok());
  auto table = martiandice::GameTable::Open(*path);
  REQUIRE(table.ok());
  return *std::move(table);
}
#endif

// The solver's options for a tiny game on `threads` threads.
inline martiandice::solver::GameSolveOptions TinyOptions(const martiandice::Rules& rules,
                                                            int players, int threads = 2) {
  martiandice::solver::GameSolveOptions options;
  options.rules = rules;
  options.players = players;
  options.threads = threads;
  return options;
}

// Every context's values of a tiny game (solver::SolveGameValues).
inline martiandice::solver::GameValues SolveTinyValues(
    const martiandice::Rules& rules, int players,
    martiandice::solver::GameSolveReport* report = nullptr, int threads = 2) {
  auto values = martiandice::solver::SolveGameValues(TinyOptions(rules, players, threads), report);
  REQUIRE(values.ok());
  return *std::move(values);
}

// The policy table of a tiny game (solver::SolveGameTable), as bytes.
inline std::string SolveTinyTable(const martiandice::Rules& rules, int players,
                                  martiandice::solver::GameSolveReport* report = nullptr) {
  auto bytes = martiandice::solver::SolveGameTable(TinyOptions(rules, players), report);
  REQUIRE(bytes.ok());
  return *std::move(bytes);
}

}  // namespace test_util
