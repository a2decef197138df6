// `martiandice solve`: the game solved (solver/game_solver.h) for any number
// of players, written as a policy table, certified, and its report as text or
// JSON; progress on stderr, Ctrl-C saving a checkpoint.
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "answers.h"
#include "atomic_file.h"
#include "certify.h"
#include "commands.h"
#include "game_solver.h"
#include "gpu_batch.h"
#include "interrupt.h"
#include "json.h"
#include "level_share.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "mpi_cluster.h"
#include "solve_checkpoint.h"
#include "support.h"

namespace martiandice::cli {
namespace {

// Where the turn solves run (--device).
enum class Device { kCpu, kGpu, kAuto };

// The GPU's part in a solve, for the report.
struct GpuUse {
  std::string name;  // the device
  solver::DeviceBatchStats stats;
};

// The checked request.
struct SolveRequest {
  Rules rules;
  int players = 2;
  int threads = 1;
  Device device = Device::kCpu;
  std::string path;        // the table file to write
  std::string checkpoint;  // where Ctrl-C saves the work
  std::string created;     // the folder made for the table, "" if none was missing
  bool certify = true;
  bool json = false;
  double checkpoint_every = 60;
  double rank_wait = solver::kRankWaitSeconds;
  int ranks = 1;                 // MPI processes solving together (mpirun), this one among them
  std::vector<long long> peaks;  // each rank's peak resident memory during the solve, bytes
};

// This process's peak resident memory so far, in bytes.
long long PeakResidentBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
  return static_cast<long long>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
}

// The option that names the checkpoint file: --checkpoint, else --out (its
// default is next to the table).
std::string CheckpointOption(const CommandOptions& options) {
  return options.checkpoint.empty() ? "--out" : "--checkpoint";
}

absl::StatusOr<SolveRequest> ReadRequest(const CommandOptions& options) {
  SolveRequest request;
  request.rules = options.request.query.rules;
  absl::StatusOr<int> players = ReadTablePlayers(options.request.query);
  if (!players.ok()) return players.status();
  request.players = *players;
  absl::StatusOr<std::string> path = OutputPath(
      options.out, TableFileName(request.rules, request.players), Folders::kCreate, Writes::kTable);
  if (!path.ok()) return path.status();
  request.path = *std::move(path);
  absl::StatusOr<int> threads = ReadThreads(options.threads);
  if (!threads.ok()) return threads.status();
  request.threads = *threads;
  request.checkpoint = CheckpointPath(options.checkpoint, request.path);
  if (!request.checkpoint.empty()) {
    if (SameFile(request.checkpoint, request.path)) {  // by identity: "./t.mdt" is t.mdt
      return absl::InvalidArgumentError(
          "--checkpoint: the checkpoint cannot be the table itself (--out); give another file");
    }
    if (absl::Status status = solver::CheckReplaceable(request.checkpoint); !status.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(CheckpointOption(options), ": ", status.message()));
    }
  }
  if (options.device == "cpu") {
    request.device = Device::kCpu;
  } else if (options.device == "gpu") {
    request.device = Device::kGpu;
  } else if (options.device == "auto") {
    request.device = Device::kAuto;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--device must be cpu, gpu or auto; got '", options.device, "'"));
  }
  for (auto [name, text, low, value] :
       {std::tuple{"--checkpoint-every", &options.checkpoint_every, 0.0, &request.checkpoint_every},
        std::tuple{"--rank-wait", &options.rank_wait, 1.0, &request.rank_wait}}) {
    if (text->empty()) continue;
    double seconds = 0;
    if (!absl::SimpleAtod(*text, &seconds) || !(seconds >= low && seconds <= 1e7)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s must be a number of seconds from %g to 1e7; got '%s'", name, low, *text));
    }
    *value = seconds;
  }
  request.certify = !options.no_certify;
  request.json = options.json;
  return request;
}

std::string GpuJson(const std::optional<GpuUse>& gpu, const solver::GameSolveReport& report) {
  if (!gpu) return "null";
  return JsonObject()
      .Str("name", gpu->name)
      .Int("turn_solves", gpu->stats.device_turns)
      .Int("cpu_turn_solves", gpu->stats.host_turns)
      .Int("batches", gpu->stats.batches)
      .Int("cycles_in_flight", static_cast<std::int64_t>(report.cycles_in_flight))
      .Int("launches", gpu->stats.launches)
      .Double("seconds", gpu->stats.device_seconds)
      .Build();
}

std::string BytesJson(const std::vector<long long>& values) {
  std::vector<std::string> items;
  for (long long v : values) items.push_back(absl::StrCat(v));
  return absl::StrCat("[", absl::StrJoin(items, ","), "]");
}

std::string ReportJson(const SolveRequest& request, const solver::GameSolveReport& report,
                       std::size_t bytes,
                       const std::optional<solver::CertificationReport>& certification,
                       const std::optional<GpuUse>& gpu) {
  const bool ties_counted = request.players > 2;  // not by the 2-player pair kernel
  return JsonObject()
             .Raw("rules", app::RulesJson(request.rules))
             .Int("players", request.players)
             .Str("out", request.path)
             .Raw("created_folder", request.created.empty() ? "null" : JsonString(request.created))
             .Int("bytes", static_cast<std::int64_t>(bytes))
             .Int("format_version", kTableFormatVersion)
             .Int("contexts", report.contexts)
             .Int("turn_solves", report.turn_solves)
             .Int("cycles", report.cycles)
             .Int("max_rounds", report.max_rounds)
             .Double("max_residual", report.max_residual)
             .Double("error_bound", report.error_bound)
             .Raw("tied_decisions", ties_counted ? absl::StrCat(report.tied_decisions) : "null")
             .Raw("kingmaking", ties_counted ? absl::StrCat(report.kingmaking) : "null")
             .Int("mixed_cycles", report.mixed_cycles)
             .Double("mixing_error", report.mixing_error)
             .Int("threads", request.threads)
             .Int("ranks", request.ranks)
             .Raw("peak_bytes", BytesJson(request.peaks))
             .Str("device", gpu ? "gpu" : "cpu")
             .Raw("gpu", GpuJson(gpu, report))
             .Double("seconds", report.seconds)
             .Raw("start", JsonDoubleArray(report.start))
             .Raw("certification", certification ? CertificationJson(*certification) : "null")
             .Build() +
         "\n";
}

// The ranks' peaks: "123.4 MB a rank at most (4 ranks)".
std::string PeakText(const std::vector<long long>& peaks) {
  const long long most = peaks.empty() ? -1 : *std::max_element(peaks.begin(), peaks.end());
  if (most < 0) return "unknown";
  return absl::StrFormat("%.1f MB a rank at most (%d ranks)", most / 1e6, peaks.size());
}

std::string GpuText(const std::optional<GpuUse>& gpu) {
  if (!gpu) return "";
  return absl::StrFormat("  turn solves on the GPU          %d (%d beside it on the CPU; %s)\n",
                         gpu->stats.device_turns, gpu->stats.host_turns, gpu->name);
}

std::string ReportText(const SolveRequest& request, const solver::GameSolveReport& report,
                       std::size_t bytes,
                       const std::optional<solver::CertificationReport>& certification,
                       const std::optional<GpuUse>& gpu) {
  const Rules& r = request.rules;
  const bool ties_counted = request.players > 2;
  std::vector<std::string> start;
  for (double v : report.start) start.push_back(absl::StrFormat("%.6f", v));
  return absl::StrFormat(
      "Solved the %d-player game: %s.\n"
      "  turn-start contexts             %d\n"
      "  turn solves                     %d\n"
      "  zero-score cycles               %d (at most %d rounds)\n"
      "  largest residual                %.3g\n"
      "  error bound of every value      %.3g\n"
      "  tied decisions (kingmaking)     %s\n"
      "  mixed cycles (their error)      %d (%.3g)\n"
      "  solve time                      %.2f s (%s)\n"
      "%s"
      "%s"
      "  each seat wins from the start   %s\n"
      "%sWrote %s (%d bytes, format version %d).\n%s",
      request.players, RulesText(r), report.contexts, report.turn_solves, report.cycles,
      report.max_rounds, report.max_residual, report.error_bound,
      ties_counted ? absl::StrFormat("%d (%d)", report.tied_decisions, report.kingmaking)
                   : std::string("not counted (2 players: a tie changes no value)"),
      report.mixed_cycles, report.mixing_error, report.seconds,
      absl::StrCat(request.ranks > 1 ? absl::StrCat(request.ranks, " ranks, ") : "",
                   request.threads, request.threads == 1 ? " thread" : " threads",
                   request.ranks > 1 ? " each" : ""),
      request.ranks > 1
          ? absl::StrCat("  peak memory of the solve        ", PeakText(request.peaks), "\n")
          : std::string(),
      GpuText(gpu), absl::StrJoin(start, ", "), CreatedLine(request.created), request.path, bytes,
      kTableFormatVersion, certification ? CertificationText(*certification) : "");
}

}  // namespace

const std::string_view kSolveHelp = R"(
Solves the whole game for the rules and number of players given: every seat's
probability of winning at every turn start under optimal play (--threads
workers, default all cores). Writes the policy table (docs/FORMAT.md: every
seat's chances; queries solve the mover's turn from them) to --out atomically
(a temporary file renamed into place); if --out is a directory, the table
gets its usual name there; missing folders are created (and named: "Created
the folder F."; created_folder in --json, else null). Progress goes to
stderr (a bar on a terminal, else a line every 10% and every minute; --quiet:
none).
Report fields (same names in --json): rules, players, out, bytes,
format_version, contexts (turn-start contexts), turn_solves (turn dynamic
programs run), cycles (zero-score cycles solved), max_rounds (most rounds one
needed), max_residual (largest distance of a stored value to its cycle's
fixed point), error_bound (bound on every stored value's error),
tied_decisions and kingmaking (decision points where the mover was tied, and
where the tied actions differ for another seat; null with 2 players, where a
tie changes no value), mixed_cycles and mixing_error (zero-score cycles
solved as a mixed equilibrium, and their share of the bound), threads,
ranks (processes under mpirun, else 1), peak_bytes (each rank's peak resident
memory during the solve; text: under mpirun), seconds, start (every seat's
chance at the start of the game).
Then the table is certified (skip with --no-certify): every decision a reader
derives from it (stop or roll; which take, per position and roll) by the turn
solve of docs/FORMAT.md is checked: non-ties must be separated by more than
margin_threshold (twice the larger of the error bound and derived_bound, the
bound the certifier derives from the values themselves, plus the reader's
rounding), ties (values within the table's tolerance) are proven exact,
structurally or by rational re-solves, and every value must solve its own turn
within value_threshold (twice the error bound plus the rounding). JSON field
certification: decisions, smallest_margin, tie_tolerance, ties,
symmetric_ties, exact_ties, inexact_ties, largest_inexact_gap, exact_solves,
derived_bound (null where a mixed cycle leaves none), margin_threshold,
value_threshold, structural_ties,
partial_exact_solves, kingmaking_ties, kingmaking_contexts, largest_value_gap,
mixed_contexts, mixing_decisions (contexts of a mixed cycle, where the mover
randomises), inexact_undecided, inexact_pick_best, inexact_pick_worse,
largest_pick_loss, certified, seconds (null with --no-certify).
A table over 64 GiB (6 players under the official rules), or whose values
exceed this machine's memory, is refused before solving; a large table is
written as it goes, never whole in memory. Progress shows the time left; Ctrl-C (or SIGTERM) finishes
the work in flight, saves it in the checkpoint
(--checkpoint, default OUT.checkpoint) and exits with status 130; the same
command then resumes without redoing finished work, with bit for bit the
same result. The checkpoint is removed once the table is written; Ctrl-C
during the certification leaves the table written, to certify with
`martiandice certify`. Exit status 0 when the table is written and certified
(or --no-certify), 3 when it is written but not certified (the report says
why), 2 for bad input (options, rules, --out), 1 for another failure (a full
disk, a damaged checkpoint), 130 if interrupted.
Under mpirun (a build with MPI; docs/SCALING.md, "On a cluster"), e.g.
`mpirun -np 4 martiandice solve --players 4 --threads 4 --out DIR`: each
process (rank) solves its share of every level of the game with --threads
workers (the score vectors of its seat 0 totals), and the ranks send each
other the values their next levels read, so each holds about its share of
the values; every rank writes its part of the one table file (the same bytes
as a solve alone; the output must be on a file system all ranks see). Rank
0 certifies it and reports; the others print only their errors. Checkpoints
are a file per rank (CHECKPOINT.rank-R-of-N), written between levels every
--checkpoint-every seconds; a rank that dies or hangs stops the job (the
others wait at most --rank-wait seconds at a level's end), and the same
command resumes from the last level every rank saved. A resumed solve says
how much of the work its checkpoint held; a checkpoint of another number of
processes is not resumed: the solve says so, starts over and leaves it be.
)";

namespace {

absl::StatusOr<CertifyOutcome> Solve(const CommandOptions& options, const CommandContext& context,
                                     SolveRequest* request, solver::MpiCluster* mpi);

}  // namespace

absl::StatusOr<CertifyOutcome> RunSolve(const CommandOptions& options,
                                        const CommandContext& context) {
  absl::StatusOr<SolveRequest> request = ReadRequest(options);
  if (!request.ok()) return request.status();
  if (!solver::MpiCluster::Launched()) return Solve(options, context, &*request, nullptr);
  // Under mpirun: every rank solves its share (docs/SCALING.md, "On a cluster").
  absl::StatusOr<std::unique_ptr<solver::MpiCluster>> mpi =
      solver::MpiCluster::Join(request->rank_wait);
  if (!mpi.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("solve under mpirun: ", mpi.status().message()));
  }
  request->ranks = (*mpi)->ranks();
  absl::StatusOr<CertifyOutcome> out = Solve(options, context, &*request, mpi->get());
  if (!out.ok() && solver::IsTransportError(out.status())) {
    // A rank is gone: no collective can end the job, so every rank ends here.
    context.err << "martiandice solve: " << out.status().message() << "\n";
    context.err.flush();
    (*mpi)->Abort(1);
  }
  return out;
}

namespace {

// The table of `values` at request->path (its folders made), streamed to a
// temporary, read back as a reader sees it into *table, then renamed over the
// path. With `mpi` collective: every rank writes its share (rank 0 the rest).
absl::Status WriteTable(solver::GameValues&& values, SolveRequest* request, solver::MpiCluster* mpi,
                        std::optional<GameTable>* table) {
  absl::Status made = absl::OkStatus();
  if (mpi == nullptr || mpi->rank() == 0) {
    absl::StatusOr<std::string> folder = CreateOutputFolders(request->path);
    made = folder.status();
    if (folder.ok() && request->created.empty()) request->created = *folder;
    if (mpi == nullptr && !made.ok()) return made;
  }
  absl::Status readback;
  const auto check = [&](const std::string& temporary) {
    absl::StatusOr<GameTable> read = GameTable::Open(temporary);
    readback = read.ok() ? read->Verify() : read.status();
    if (!readback.ok()) {
      readback = absl::DataLossError(absl::StrCat("the solved table does not read back (",
                                                  readback.message(), "): ", request->path,
                                                  " is left as it was"));
      return readback;
    }
    *table = *std::move(read);
    return absl::OkStatus();
  };
  absl::Status written;
  if (mpi == nullptr) {
    written = solver::WriteGameTable(std::move(values), request->path, check);
  } else if (written = solver::AgreeStatus(*mpi, made); written.ok()) {
    written = solver::WriteGameTableShared(std::move(values), request->path, *mpi, check);
  }
  if (!readback.ok()) return readback;
  if (solver::IsTransportError(written)) return written;  // a rank gone: the job ends
  if (!written.ok()) return OutputError(request->path, written);
  return absl::OkStatus();
}

// A checkpoint of another number of processes than this solve's, for people:
// which, and how it resumes (this solve starts over, leaving it be); else "".
std::string OtherCheckpointNote(const std::string& checkpoint, int ranks) {
  const std::optional<solver::OtherLayout> other = solver::OtherLayoutCheckpoint(checkpoint, ranks);
  if (!other) return "";
  const std::string by =
      other->ranks > 1 ? absl::StrCat(other->ranks, " processes (it resumes under `mpirun -np ",
                                      other->ranks, "` only)")
                       : std::string("one process (it resumes without mpirun only)");
  return absl::StrCat(other->file, " is the checkpoint of a solve by ", by,
                      ": this one starts over and leaves it be");
}

// The solve, alone or as one rank of `mpi` (then rank 0 writes, certifies
// and reports; the others print nothing but their errors).
absl::StatusOr<CertifyOutcome> Solve(const CommandOptions& options, const CommandContext& context,
                                     SolveRequest* request, solver::MpiCluster* mpi) {
  const bool lead = mpi == nullptr || mpi->rank() == 0;
  // The checkpoint is written next to the table during the solve.
  if (!request->checkpoint.empty()) {  // made before the solve: the checkpoint goes there
    absl::StatusOr<std::string> folder = CreateOutputFolders(request->path);
    if (!folder.ok()) return folder.status();
    request->created = *folder;
  }
  Progress progress(context.err, context.stderr_is_terminal, options.quiet || !lead,
                    SolveProgressLabel(request->players));
  if (lead && !request->checkpoint.empty()) {  // the one rank that reports looks
    if (const std::string note = OtherCheckpointNote(request->checkpoint, request->ranks);
        !note.empty()) {
      progress.Note(note);
    }
  }
  InterruptFlag interrupt(
      InterruptNotice(kSolveInterruptNotice, options.quiet || !lead, context.stderr_is_terminal));
  solver::GameSolveReport report;
  std::once_flag resumed;  // said once, at the first progress of a resumed solve
  solver::GameSolveOptions solve;
  solve.rules = request->rules;
  solve.players = request->players;
  solve.threads = request->threads;
  solve.progress = [&](const solver::GameSolveProgress& p) {
    if (report.resumed_fraction > 0) {
      std::call_once(resumed, [&] {
        progress.Note(absl::StrFormat("resumed from the checkpoint %s: %.1f%% of the work was done",
                                      request->checkpoint, 100 * report.resumed_fraction));
      });
    }
    progress.Update(p.fraction, p.seconds, p.seconds_left);
  };
  solve.checkpoint = request->checkpoint;
  solve.checkpoint_interval = request->checkpoint_every;
  solve.keep_checkpoint = true;  // until the table is written
  solve.stop = interrupt.flag();
  solve.resume_hint = "run the same command again to resume";  // the CLI's way
  std::unique_ptr<solver::GpuBackend> device;
  if (request->device != Device::kCpu) {
    absl::StatusOr<std::unique_ptr<solver::GpuBackend>> made =
        solver::MakeGpuBackend(request->threads);
    if (made.ok()) {
      device = *std::move(made);
    } else if (request->device == Device::kGpu) {
      return absl::UnavailableError(absl::StrCat("--device gpu: ", made.status().message()));
    }
  }
  solve.turn_batch = device != nullptr ? &device->batch() : nullptr;
  solve.cluster = mpi;
  absl::StatusOr<solver::GameValues> values = solver::SolveTableValues(solve, &report);
  if (absl::IsPermissionDenied(values.status()) || absl::IsNotFound(values.status())) {
    // The checkpoint cannot be written or read: a folder or file of the user's.
    return absl::InvalidArgumentError(
        absl::StrCat(CheckpointOption(options), ": ", values.status().message()));
  }
  if (!values.ok()) return values.status();
  progress.Finish();
  request->peaks = {PeakResidentBytes()};  // the solve's (before the table and the certification)
  // This rank's checkpoint file, removed once the table is written.
  const std::string checkpoint =
      mpi == nullptr ? request->checkpoint
                     : solver::RankCheckpointPath(request->checkpoint, mpi->rank(), mpi->ranks());
  std::optional<GameTable> table;  // rank 0's
  const std::uint64_t table_bytes = TableBytes(values->rules, values->players);
  // The values are freed once written, before the table is read back.
  absl::Status written = WriteTable(*std::move(values), request, mpi, &table);
  if (mpi != nullptr && written.ok()) {  // each rank's peak, for rank 0's report
    absl::StatusOr<std::vector<std::string>> told =
        solver::GatherAll(*mpi, absl::StrCat(request->peaks[0]));
    if (!told.ok()) written = told.status();
    for (std::size_t r = 1; told.ok() && r < told->size(); ++r) {
      long long peak = 0;
      request->peaks.push_back(absl::SimpleAtoi((*told)[r], &peak) ? peak : -1);
    }
  }
  if (!written.ok()) {
    // Rank 0 tells the first failed rank's error; the others keep their
    // checkpoints quietly (but end on a transport error).
    if (lead || solver::IsTransportError(written)) return written;
    return CertifyOutcome{"", true};
  }
  if (!request->checkpoint.empty()) {
    std::error_code ignored;  // a leftover checkpoint only costs disk space
    std::filesystem::remove(checkpoint, ignored);
  }
  if (!lead) return CertifyOutcome{"", true};
  std::optional<solver::CertificationReport> certification;
  if (request->certify) {
    solver::CertifyOptions certify;
    certify.threads = request->threads;
    certify.stop = interrupt.flag();
    absl::StatusOr<solver::CertificationReport> checked = solver::CertifyTable(*table, certify);
    if (absl::IsCancelled(checked.status())) {
      return absl::CancelledError(absl::StrCat(
          "interrupted while certifying: ", request->path,
          " is written and complete but not certified (certify it with `martiandice certify "
          "--players ",
          request->players, " --dice ", request->rules.dice, " --bonus ", request->rules.bonus,
          " --target ", request->rules.target, " --tables ", request->path, "`)"));
    }
    if (!checked.ok()) return checked.status();
    certification = *std::move(checked);
  }
  std::optional<GpuUse> gpu;
  if (device != nullptr) gpu = GpuUse{device->device(), device->stats()};
  // Not certified: the report says why, and the exit status (3) tells a script.
  return CertifyOutcome{request->json
                            ? ReportJson(*request, report, table_bytes, certification, gpu)
                            : ReportText(*request, report, table_bytes, certification, gpu),
                        !certification || certification->certified};
}

}  // namespace

}  // namespace martiandice::cli
