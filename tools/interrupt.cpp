// The SIGINT/SIGTERM flag of long CLI jobs and their progress text.
#include "interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

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

InterruptFlag::InterruptFlag(const std::string& notice) {
  g_flag = false;
  g_signal = 0;
  g_count = 0;
  g_notice_size = std::min(notice.size(), sizeof g_notice);
  std::memcpy(g_notice, notice.data(), g_notice_size);
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in flight carry on
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

std::string SolveProgressText(int players, double fraction, double seconds, double seconds_left) {
  const int percent = static_cast<int>(std::floor(std::clamp(fraction, 0.0, 1.0) * 100));
  std::string text = absl::StrFormat("solving %d players: %d%% (%s elapsed", players, percent,
                                     FormatDuration(seconds));
  if (seconds_left >= 0 && percent < 100) {
    absl::StrAppend(&text, ", about ", FormatDuration(seconds_left), " left");
  }
  text += ")";
  return text;
}

}  // namespace martiandice::cli
