// The SIGINT/SIGTERM flag of long CLI jobs and their progress on stderr.
#include "interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "terminal.h"

namespace martiandice::cli {
namespace {

// Process-wide state of the handlers: lock-free atomics and plain buffers,
// all the handler may touch.
std::atomic<bool> g_flag{false};
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
char g_notice[512];
size_t g_notice_size = 0;
struct sigaction g_previous_int, g_previous_term;
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

extern "C" void OnSignal(int sig) {
  if (g_count.fetch_add(1) >= 1) {
    // The second signal: the default action (termination by that signal).
    struct sigaction plain {};
    plain.sa_handler = SIG_DFL;
    sigemptyset(&plain.sa_mask);
    sigaction(sig, &plain, nullptr);
    raise(sig);
    return;
  }
  g_signal.store(sig);
  g_flag.store(true);
  if (g_notice_size > 0) {
    ssize_t ignored = write(STDERR_FILENO, g_notice, g_notice_size);
    (void)ignored;
  }
}

}  // namespace

InterruptFlag::InterruptFlag(const std::string& notice, Blocked blocked) {
  g_flag = false;
  g_signal = 0;
  g_count = 0;
  g_notice_size = std::min(notice.size(), sizeof g_notice);
  std::memcpy(g_notice, notice.data(), g_notice_size);
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = blocked == Blocked::kRestart ? SA_RESTART : 0;
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

InterruptFlag::~InterruptFlag() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
}

const std::atomic<bool>* InterruptFlag::flag() const { return &g_flag; }
int InterruptFlag::signal() const { return g_signal.load(); }
void InterruptFlag::Set() { g_flag = true; }

std::string CheckpointPath(const std::string& option, const std::string& out) {
  return option.empty() ? out + ".checkpoint" : option;
}

std::string FormatDuration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return "?";
  const long long s = std::llround(seconds);
  if (s < 60) return absl::StrFormat("%ds", s);
  if (s < 3600) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  const long long m = (s + 30) / 60;
  return absl::StrFormat("%dh%02dm", m / 60, m % 60);
}

namespace {

int Percent(double fraction) {
  return static_cast<int>(std::floor(std::clamp(fraction, 0.0, 1.0) * 100));
}

}  // namespace

std::string ProgressText(std::string_view what, double fraction, double seconds,
                         double seconds_left) {
  const int percent = Percent(fraction);
  std::string text =
      absl::StrFormat("%s: %d%% (%s elapsed", what, percent, FormatDuration(seconds));
  if (seconds_left >= 0 && percent < 100) {
    absl::StrAppend(&text, ", about ", FormatDuration(seconds_left), " left");
  }
  text += ")";
  return text;
}

std::string SolveProgressLabel(int players) {
  return absl::StrFormat("solving %d players", players);
}

Progress::Progress(std::ostream& err, bool terminal, bool quiet, std::string what)
    : err_(err),
      terminal_(terminal),
      quiet_(quiet),
      what_(std::move(what)),
      start_(std::chrono::steady_clock::now()) {}

double Progress::Seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::Update(double fraction, double seconds, double seconds_left) {
  if (quiet_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  const int percent = Percent(fraction);
  const std::string text = ProgressText(what_, fraction, seconds, seconds_left);
  if (terminal_) {
    if (percent == shown_ && Seconds() - drawn_ < 1) return;
    shown_ = percent;
    drawn_ = Seconds();
    const std::size_t width = std::max(text.size(), last_width_);
    last_width_ = text.size();
    WriteRaw(err_, "\r");  // the line redrawn in place: the one control byte let through
    err_ << "martiandice: " << text << std::string(width - text.size(), ' ') << std::flush;
  } else {
    // A line each tenth, and a minute after the last line (hours-long work).
    const int tenth = percent / 10;
    const bool minute = Seconds() - drawn_ >= 60;
    if (!minute && (tenth <= shown_ || tenth == 0)) return;
    shown_ = std::max(shown_, tenth);
    drawn_ = Seconds();
    err_ << "martiandice: " << text << "\n" << std::flush;
  }
}

void Progress::Update(double fraction) {
  const double seconds = Seconds();
  const double left = fraction >= 0.05 ? seconds * (1 - fraction) / fraction : -1;
  Update(fraction, seconds, left);
}

void Progress::Note(const std::string& line) {
  if (quiet_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && shown_ >= 0) {
    err_ << "\n";
    shown_ = -1;
  }
  err_ << "martiandice: " << line << "\n" << std::flush;
}

void Progress::Finish() {
  Update(1.0, Seconds(), 0);
  std::lock_guard<std::mutex> lock(mutex_);
  if (terminal_ && shown_ >= 0) err_ << "\n" << std::flush;
}

}  // namespace martiandice::cli
