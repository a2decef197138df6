// The game solve's checkpoints: the finished contexts in the solve's order,
// loaded, written and deleted at the solve's points.
#include "solve_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "atomic_file.h"
#include "table_format.h"

namespace martiandice::solver {

std::string RankCheckpointPath(const std::string& path, int rank, int ranks) {
  return ranks > 1 ? absl::StrFormat("%s.rank-%d-of-%d", path, rank, ranks) : path;
}

SolveCheckpoint::SolveCheckpoint(const GameSolveOptions& options, SolveState& state,
                                 const LevelSchedule& schedule, LevelShare& share,
                                 GameSolveReport* report)
    : state_(state),
      schedule_(schedule),
      share_(share),
      report_(report),
      path_(options.checkpoint.empty()
                ? std::string()
                : RankCheckpointPath(options.checkpoint, schedule.rank(), schedule.ranks())),
      resume_hint_(options.resume_hint),
      interval_(options.checkpoint_interval),
      keep_(options.keep_checkpoint) {}

CheckpointIdentity SolveCheckpoint::Identity() const {
  CheckpointIdentity id;
  id.rules = state_.rules;
  id.players = state_.n;
  id.extended = state_.arithmetic == internal::Arithmetic::kExtended;
  id.solver_version = kSolverVersion;
  id.levels = static_cast<std::uint32_t>(schedule_.levels());
  return id;
}

// Calls fn(context) for every context finished before `at`, in the
// checkpoint's order.
template <typename Fn>
void SolveCheckpoint::ForEachFinished(SolvePoint at, Fn fn) const {
  int s[kMaxPlayers];
  auto visit = [&](std::uint64_t code) {
    schedule_.Unpack(code, s);
    for (int seat = state_.FirstMover(s); seat < state_.n; ++seat) fn(state_.index.Index(seat, s));
  };
  for (int k = 0; k < at.level; ++k) {
    for (std::uint64_t code : schedule_.Level(k)) visit(code);
  }
  for (size_t v = 0; v < at.vectors; ++v) visit(schedule_.Level(at.level)[v]);
}

absl::StatusOr<SolvePoint> SolveCheckpoint::Open() {
  if (!enabled()) return SolvePoint();
  if (shared()) return OpenShared();
  absl::StatusOr<Checkpoint> loaded =
      ReadCheckpoint(path_, Identity(), CheckpointSize(state_.index.size(), state_.n));
  if (loaded.ok()) {
    if (absl::Status s = Load(*loaded); !s.ok()) return s;
    return SolvePoint{static_cast<int>(loaded->levels_done),
                      static_cast<size_t>(loaded->vectors_done)};
  }
  if (!absl::IsNotFound(loaded.status())) return loaded.status();
  // Written now, so a path that cannot be written fails before the work.
  if (absl::Status s = Write(SolvePoint(), CheckpointCounters()); !s.ok()) return s;
  return SolvePoint();
}

absl::StatusOr<SolvePoint> SolveCheckpoint::OpenShared() {
  // This rank's files, by the level they hold (each at a level's start).
  std::vector<std::pair<std::uint32_t, Checkpoint>> held;
  absl::Status read = absl::OkStatus();
  for (const std::string& path : {path_, previous()}) {
    absl::StatusOr<Checkpoint> c =
        ReadCheckpoint(path, Identity(), CheckpointSize(state_.index.size(), state_.n));
    if (absl::IsNotFound(c.status())) continue;
    if (!c.ok()) {
      read = c.status();
    } else if (c->vectors_done != 0) {
      read = absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: it stops within a level, which a rank's never does; delete "
          "it to start the solve over",
          path));
    } else {
      held.emplace_back(c->levels_done, *std::move(c));
    }
  }
  if (absl::Status s = share_.Agree(read); !s.ok()) return s;
  std::string levels;
  for (const auto& [level, c] : held) levels.append(reinterpret_cast<const char*>(&level), 4);
  absl::StatusOr<std::vector<std::string>> all = share_.Gather(levels);
  if (!all.ok()) return all.status();
  // Whether a rank's message lists `level`.
  auto lists = [](const std::string& message, std::uint32_t level) {
    for (std::size_t at = 0; at + 4 <= message.size(); at += 4) {
      std::uint32_t l;
      std::memcpy(&l, message.data() + at, 4);
      if (l == level) return true;
    }
    return false;
  };
  // The latest level every rank holds (the start: none needed).
  std::uint32_t common = 0;
  for (const auto& entry : held) {
    const std::uint32_t level = entry.first;  // a plain name: clang 14 captures no bindings
    if (std::all_of(all->begin(), all->end(),
                    [&](const std::string& m) { return lists(m, level); })) {
      common = std::max(common, level);
    }
  }
  absl::Status loaded = absl::OkStatus();
  for (const auto& [level, c] : held) {
    if (common > 0 && level == common) {
      loaded = Load(c);
      break;
    }
  }
  if (absl::Status s = share_.Agree(loaded); !s.ok()) return s;
  if (common > 0) return SolvePoint{static_cast<int>(common), 0};
  if (absl::Status s = Write(SolvePoint(), CheckpointCounters()); !s.ok()) return s;
  return SolvePoint();
}

absl::Status SolveCheckpoint::Write(SolvePoint at, const CheckpointCounters& counters) {
  const int n = state_.n;
  const double began = schedule_.Seconds();
  Checkpoint c;
  c.identity = Identity();
  c.levels_done = static_cast<std::uint32_t>(at.level);
  c.vectors_done = at.vectors;
  c.counters = counters;
  c.seconds = report_->earlier_seconds + began;
  std::uint64_t contexts = 0;
  ForEachFinished(at, [&](long long) { ++contexts; });
  // Streamed to the temporary: the values are never copied whole.
  absl::StatusOr<std::unique_ptr<AtomicFileWriter>> file = AtomicFileWriter::Create(path_);
  absl::Status written = file.status();
  if (written.ok()) {
    CheckpointWriter writer(c, contexts,
                            [&file](std::string_view bytes) { return (*file)->Append(bytes); });
    ForEachFinished(at, [&](long long context) {
      writer.Append(&state_.win[context * n], n);
      writer.Append(&state_.error_of[context], 1);
      if (n == 2) writer.Append(&state_.pair_slope[context], 1);
    });
    written = writer.Finish();
  }
  if (written.ok() && shared()) {
    // The last one kept until every rank has written this one.
    std::error_code error;
    if (std::filesystem::exists(path_, error)) std::filesystem::rename(path_, previous(), error);
    if (error)
      written = absl::InternalError(absl::StrCat("renaming ", path_, ": ", error.message()));
  }
  if (written.ok()) written = (*file)->Commit();
  if (!written.ok()) {
    written =
        absl::Status(written.code(), absl::StrCat("writing the checkpoint: ", written.message()));
  }
  // This rank's own write (not the wait for the others) paces the next.
  const double wrote = schedule_.Seconds() - began;
  if (shared()) {
    written = share_.Agree(written);
    if (written.ok()) {
      std::error_code ignored;  // a leftover only costs disk space: a later level wins
      std::filesystem::remove(previous(), ignored);
    }
  }
  if (!written.ok()) return written;
  last_write_end_ = schedule_.Seconds();
  last_write_seconds_ = wrote;
  ++report_->checkpoints_written;
  report_->checkpoint_bytes = static_cast<long long>(CheckpointSize(contexts, n));
  report_->checkpoint_seconds += last_write_seconds_;
  return absl::OkStatus();
}

bool SolveCheckpoint::Due() const {
  const double since = schedule_.Seconds() - last_write_end_;
  return enabled() && since >= std::max(interval_, 20 * last_write_seconds_);
}

// Takes a parsed checkpoint's finished work.
absl::Status SolveCheckpoint::Load(const Checkpoint& c) {
  const int n = state_.n;
  const int level = static_cast<int>(c.levels_done);
  const int levels = schedule_.levels();
  if (level < levels && c.vectors_done > 0 && c.vectors_done >= schedule_.Level(level).size()) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %u score vectors done of a level of %u; delete it to start "
        "the solve over",
        path_, c.vectors_done, schedule_.Level(level).size()));
  }
  const SolvePoint at{level, level < levels ? static_cast<size_t>(c.vectors_done) : 0};
  size_t contexts = 0;
  ForEachFinished(at, [&](long long) { ++contexts; });
  const int width = CheckpointRecordWidth(n);
  if (contexts * width != c.records.size()) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %u contexts stored where its progress has %u; delete it to "
        "start the solve over",
        path_, c.records.size() / width, contexts));
  }
  // Every record as a table may hold it, before any is used: a checksum
  // recomputed over altered values must not make a table of them.
  for (std::size_t k = 0; k < contexts; ++k) {
    const double* r = &c.records[k * width];
    std::string problem = internal::WinVectorProblem(r, n, r[n]);
    // As a table's header bound (false for NaN), or an unconverged cycle's
    // infinity: the resumed solve then ends as the first did, with no table.
    if (!(r[n] >= 0 && (r[n] < 1 || r[n] == HUGE_VAL))) {
      problem = absl::StrFormat("error bound %g is not a bound in [0, 1)", r[n]);
    }
    if (!problem.empty()) {
      return absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: finished context %d: %s; delete it to start the solve over",
          path_, k, problem));
    }
  }
  const double* r = c.records.data();
  ForEachFinished(at, [&](long long context) {
    std::copy(r, r + n, &state_.win[context * n]);
    state_.error_of[context] = r[n];
    if (n == 2) state_.pair_slope[context] = r[n + 1];
    r += width;
  });
  loaded_ = c.counters;
  report_->earlier_seconds = c.seconds;
  return absl::OkStatus();
}

absl::Status SolveCheckpoint::Interrupt(SolvePoint at, const CheckpointCounters& counters) {
  const long long done = schedule_.CostBefore(at.level, at.vectors);
  const std::string where =
      absl::StrFormat("%.1f%% done (level %d of %d)", 100 * schedule_.Fraction(done), at.level + 1,
                      schedule_.levels());
  if (!enabled()) {
    return absl::CancelledError(
        absl::StrCat("solve interrupted at ", where, "; no checkpoint file: the work is lost"));
  }
  if (absl::Status s = Write(at, counters); !s.ok()) return s;
  return absl::CancelledError(absl::StrCat("solve interrupted at ", where,
                                           "; the finished work is saved in ", path_, ": ",
                                           resume_hint_));
}

absl::Status SolveCheckpoint::SaveAfter(const absl::Status& status, SolvePoint at,
                                        const CheckpointCounters& counters) {
  if (!enabled()) return status;
  if (absl::Status s = Write(at, counters); !s.ok()) return status;
  return absl::Status(
      status.code(), absl::StrCat(status.message(), "; the finished work is saved in ", path_, ": ",
                                  resume_hint_));
}

absl::Status SolveCheckpoint::Finish(bool solved, const CheckpointCounters& counters) {
  if (!enabled()) return absl::OkStatus();
  if (keep_) {
    // Kept: then it holds the whole solve, and solving again only loads it.
    return solved ? Write(SolvePoint{schedule_.levels(), 0}, counters) : absl::OkStatus();
  }
  std::error_code ignored;  // one left behind is harmless: the same solve would load it
  std::filesystem::remove(path_, ignored);
  if (shared()) std::filesystem::remove(previous(), ignored);
  return absl::OkStatus();
}

}  // namespace martiandice::solver
