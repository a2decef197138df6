/* The C API (martiandice_c.h) from C11: every query kind against values worked
 * out by hand from the rules (docs/RULES.md), and every error path: bad notation,
 * bad rules, objective, scores and seat, missing, mismatched and corrupt
 * tables, a table the system cannot read, NULL arguments. Exits 0 if every
 * check passed. */
#define _POSIX_C_SOURCE 200809L /* mkfifo, setrlimit */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "martiandice/martiandice_c.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR (the shipped tables) must be defined"
#endif
#ifndef MARTIANDICE_SCRATCH_DIR
#error "MARTIANDICE_SCRATCH_DIR (an empty directory) must be defined"
#endif
#ifndef MARTIANDICE_VERSION
#error "MARTIANDICE_VERSION must be defined"
#endif

#define TABLE_FILE "martiandice-p2-d13-b3-t25.mdt"

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

static int Near(double a, double b) { return fabs(a - b) <= 1e-12 * (1 + fabs(b)); }
/* Table values are rounded to 6 places in the README. */
static int Near6(double a, double b) { return fabs(a - b) <= 5e-7; }

/* An error with `status` whose message contains `part`. */
static void ExpectError(md_status got, md_status want, const char* part, int line) {
  ++checks;
  const char* message = md_last_error();
  if (got != want || message == NULL || strstr(message, part) == NULL) {
    ++failures;
    fprintf(stderr, "%s:%d: expected %s with a message containing \"%s\", got %s: \"%s\"\n",
            __FILE__, line, md_status_name(want), part, md_status_name(got),
            message ? message : "(null)");
  }
}
#define EXPECT_ERROR(call, want, part) ExpectError((call), (want), (part), __LINE__)

/* A win query of `players` seats at totals `scores`, the rest md_query_init's. */
static void InitWin(md_query* query, const int* scores, int players) {
  md_query_init(query);
  query->objective = "win";
  query->scores = scores;
  query->players = players;
}

static void TestVersionAndNames(void) {
  CHECK(strcmp(md_version(), MARTIANDICE_VERSION) == 0);
  CHECK(strcmp(md_status_name(MD_OK), "MD_OK") == 0);
  CHECK(strcmp(md_status_name(MD_ERR_NOT_FOUND), "MD_ERR_NOT_FOUND") == 0);
  CHECK(strcmp(md_status_name((md_status)99), "?") == 0);
  CHECK(strcmp(md_face_name(MD_CHICKEN), "chicken") == 0);
  CHECK(strcmp(md_face_name((md_face)-1), "?") == 0);
  CHECK(strcmp(md_then_name(MD_EITHER), "either") == 0);
}

/* The rulebook's sample turn ends with 3T 3R 4H 1K set aside (5 points) and 2
 * dice left. By hand (see tests/library/sample_turn_test.cpp): rolling on is worth
 * 281/54 in expectation; after taking a ray instead of stopping, 17/3; with
 * 3T 3R 4H 1C 1K, stop 9 beats rolling 15/2. */
static void TestTurnEval(md_handle* md) {
  md_query query;
  md_query_init(&query);
  CHECK(query.rules.dice == 13 && query.rules.bonus == 3 && query.rules.target == 25);
  CHECK(strcmp(query.objective, "ev") == 0 && query.scores == NULL && query.players == 0);

  md_eval_result eval;
  CHECK(md_eval(md, &query, "3T 3R 4H 1K", &eval) == MD_OK);
  CHECK(strcmp(md_last_error(), "") == 0);
  CHECK(eval.dice_left == 2);
  CHECK(eval.can_stop && Near(eval.stop, 5.0));
  CHECK(eval.can_roll && Near(eval.roll, 281.0 / 54.0));
  CHECK(Near(eval.value, 281.0 / 54.0));
  CHECK(eval.action == MD_ROLL);
  CHECK(eval.players == 0);

  CHECK(md_eval(md, &query, "3t4r4h1k", &eval) == MD_OK);
  CHECK(Near(eval.roll, 17.0 / 3.0) && eval.action == MD_ROLL);
  CHECK(md_eval(md, &query, "3T 3R 4H 1C 1K", &eval) == MD_OK);
  CHECK(Near(eval.stop, 9.0) && Near(eval.roll, 7.5) && eval.action == MD_STOP);

  /* A fresh turn: stopping is not allowed; NULL, "" and "-" all mean nothing aside. */
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK);
  CHECK(eval.dice_left == 13 && !eval.can_stop && eval.can_roll && eval.action == MD_ROLL);
  const double fresh = eval.value;
  CHECK(Near6(fresh, 3.110382)); /* as `martiandice eval` prints it */
  CHECK(md_eval(md, &query, "-", &eval) == MD_OK && eval.value == fresh);
  CHECK(md_eval(md, &query, "", &eval) == MD_OK && eval.value == fresh);

  /* reach:10 from 3T 3R 4H 1K: only two cows (4H 2C 1K + bonus = 10) get
   * there, probability 1/36; stopping scores 5, utility 0. */
  query.objective = "reach:10";
  CHECK(md_eval(md, &query, "3T 3R 4H 1K", &eval) == MD_OK);
  CHECK(Near(eval.stop, 0.0) && Near(eval.roll, 1.0 / 36.0) && eval.action == MD_ROLL);
  /* capped:5 from there: stopping already has the most there is. */
  query.objective = "capped:5";
  CHECK(md_eval(md, &query, "3T 3R 4H 1K", &eval) == MD_OK);
  CHECK(Near(eval.value, 5.0) && eval.action == MD_STOP && eval.roll < 5.0);

  /* Rule variants: one die, no bonus. A fresh roll: ray or tank (3/6) scores
   * 0, an earthling (3/6) scores 1: value 1/2. */
  md_query_init(&query);
  query.rules.dice = 1;
  query.rules.bonus = 0;
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK);
  CHECK(Near(eval.value, 0.5));
}

/* The last roll of the sample turn: 3T 2R 4H 1K aside, 1R 1H 1C rolled. The
 * human cannot be taken (humans are aside). Taking the ray leads to the
 * position above (value 281/54, roll on). Taking the cow leaves 3 tanks
 * against 2 rays (stop: 0); rolling the last 2 dice scores 9 exactly when
 * they show a ray and no tank: RR (4 of 36) or R with H, C or K (12 of 36),
 * so 16/36 * 9 = 4. */
static void TestTurnBest(md_handle* md) {
  md_query query;
  md_query_init(&query);
  md_best_result best;
  CHECK(md_best(md, &query, "3T 2R 4H 1K", "1R 1H 1C", &best) == MD_OK);
  CHECK(!best.turn_over && best.take_count == 2);
  if (best.take_count == 2) {
    const md_take* ray = &best.takes[0];
    const md_take* cow = &best.takes[1];
    CHECK(ray->take == MD_RAY && ray->count == 1);
    CHECK(strcmp(ray->aside_after, "3T 3R 4H 1K") == 0);
    CHECK(Near(ray->stop, 5.0) && ray->can_roll && Near(ray->roll, 281.0 / 54.0));
    CHECK(ray->then == MD_ROLL && ray->optimal);
    CHECK(cow->take == MD_COW && cow->count == 1);
    CHECK(strcmp(cow->aside_after, "3T 2R 4H 1C 1K") == 0);
    CHECK(Near(cow->stop, 0.0) && Near(cow->roll, 4.0) && Near(cow->value, 4.0));
    CHECK(cow->then == MD_ROLL && !cow->optimal);
  }
  CHECK(best.best == 0 && Near(best.value, 281.0 / 54.0));
  CHECK(best.players == 0);

  /* No legal take (humans are aside, no ray rolled): the turn ends, scored:
   * 1 ray against no tank, 4 humans, no bonus. */
  CHECK(md_best(md, &query, "1R 4H", "8H", &best) == MD_OK);
  CHECK(best.turn_over && best.turn_over_score == 4 && best.take_count == 0 && best.best == -1);
  /* Tanks outnumbering rays at the end score nothing. */
  CHECK(md_best(md, &query, "4H", "2T 7H", &best) == MD_OK);
  CHECK(best.turn_over && best.turn_over_score == 0);
}

/* A take after which no dice are left: 2T 3R 4H 1K aside (10 dice), the last
 * 3 dice rolled all cows. The only take is the 3 cows (humans and chickens are
 * aside, no ray): 13 dice aside, so the player can only stop, with
 * 4 + 3 + 1 earthlings (3 rays hold off 2 tanks) and the bonus 3: 11. */
static void TestNoDiceLeft(md_handle* md) {
  md_query query;
  md_query_init(&query);
  md_best_result best;
  CHECK(md_best(md, &query, "2T 3R 4H 1K", "3C", &best) == MD_OK);
  CHECK(!best.turn_over && best.take_count == 1);
  if (best.take_count == 1) {
    const md_take* cows = &best.takes[0];
    CHECK(cows->take == MD_COW && cows->count == 3);
    CHECK(strcmp(cows->aside_after, "2T 3R 4H 3C 1K") == 0);
    CHECK(!cows->can_roll);
    CHECK(Near(cows->stop, 11.0) && Near(cows->value, 11.0) && cows->then == MD_STOP);
    CHECK(cows->optimal);
  }
  CHECK(best.best == 0 && Near(best.value, 11.0));
  md_eval_result eval;
  CHECK(md_eval(md, &query, "2T 3R 4H 3C 1K", &eval) == MD_OK);
  CHECK(eval.dice_left == 0 && !eval.can_roll && eval.can_stop);
  CHECK(Near(eval.stop, 11.0) && Near(eval.value, 11.0) && eval.action == MD_STOP);
  /* One die short of the end: rolling is still possible (the control). */
  CHECK(md_best(md, &query, "2T 3R 4H 1K", "2C 1K", &best) == MD_OK);
  CHECK(best.take_count == 1 && best.takes[0].can_roll);
}

/* Win queries from the shipped table. Final round, seat 1 with 21 against 25
 * and 3T 3R 4H 1K aside (5 points): stopping wins for sure (26 > 25); rolling
 * loses exactly when a tank comes with no ray: TT (1), TH, TK (4), TC (2):
 * 29/36 wins. Other figures as printed by the CLI (README). */
static void TestWin(md_handle* md) {
  md_query query;
  const int final_round[2] = {25, 21};
  InitWin(&query, final_round, 2);
  query.seat = 1;
  md_eval_result eval;
  CHECK(md_eval(md, &query, "3T 3R 4H 1K", &eval) == MD_OK);
  CHECK(Near(eval.stop, 1.0) && Near(eval.roll, 29.0 / 36.0) && eval.action == MD_STOP);
  CHECK(eval.players == 2);
  CHECK(Near(eval.win[0] + eval.win[1], 1.0));
  CHECK(Near6(eval.win[0], 0.603433) && Near6(eval.win[1], 0.396567));

  const int start[2] = {0, 0};
  query.scores = start;
  query.seat = 0;
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK);
  CHECK(Near6(eval.value, 0.484123) && Near(eval.value, eval.win[0]));

  /* Behind 18 to 22 at the rulebook's last roll, the cow wins more often. */
  const int behind[2] = {18, 22};
  query.scores = behind;
  md_best_result best;
  CHECK(md_best(md, &query, "3T 2R 4H 1K", "1R 1H 1C", &best) == MD_OK);
  CHECK(best.take_count == 2 && best.best == 1);
  CHECK(best.takes[1].take == MD_COW && best.takes[1].then == MD_ROLL);
  CHECK(Near6(best.takes[0].value, 0.315673) && Near6(best.takes[1].value, 0.348276));
  CHECK(Near6(best.takes[0].stop, 0.189722) && Near6(best.takes[1].stop, 0.060532));
  CHECK(best.players == 2 && Near6(best.win[0], 0.190526) && Near6(best.win[1], 0.809474));

  /* Three players: the shipped version 3 table (the turn solved on demand).
   * Figures as printed by the CLI (README). */
  const int three[3] = {10, 12, 8};
  query.scores = three;
  query.players = 3;
  query.seat = 1;
  CHECK(md_best(md, &query, NULL, "2T 2R 3H 4C 2K", &best) == MD_OK);
  CHECK(best.take_count == 4 && best.best == 2 && best.takes[2].take == MD_COW);
  CHECK(Near6(best.takes[2].value, 0.562606) && Near6(best.takes[0].value, 0.513453));
  CHECK(best.players == 3 && Near6(best.win[0], 0.165039) && Near6(best.win[1], 0.563427) &&
        Near6(best.win[2], 0.271533));
  const int start3[3] = {0, 0, 0};
  query.scores = start3;
  query.seat = 0;
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK);
  CHECK(eval.players == 3 && Near6(eval.win[0], 0.318492) && Near6(eval.win[2], 0.348925));
  query.scores = behind;
  query.players = 2;

  /* The table that answered: the shipped one, opened through its directory. */
  char path[4096];
  CHECK(md_table_path(md, &query, path, sizeof path) == MD_OK);
  CHECK(strcmp(path, MARTIANDICE_DATA_DIR "/" TABLE_FILE) == 0);
  EXPECT_ERROR(md_table_path(md, &query, path, 10), MD_ERR_INVALID_ARGUMENT, "bytes, not 10");
  EXPECT_ERROR(md_table_path(md, &query, NULL, 10), MD_ERR_INVALID_ARGUMENT, "NULL");
  md_query_init(&query);
  EXPECT_ERROR(md_table_path(md, &query, path, sizeof path), MD_ERR_INVALID_ARGUMENT,
               "win objective only");
}

/* Four players: no table (MD_ERR_NOT_FOUND), then the fallback's objective,
 * M worked out by hand from the rules: the points to the target, in the final
 * round one past the leader (and K the seats at the leader's total). */
static void TestFallback(md_handle* md) {
  md_query query;
  md_best_result best;
  char objective[16];
  const int early[4] = {10, 0, 3, 7};
  InitWin(&query, early, 4);
  EXPECT_ERROR(md_best(md, &query, NULL, "2T 3R 4H 3C 1K", &best), MD_ERR_NOT_FOUND,
               "martiandice-p4-d13-b3-t25.mdt");
  CHECK(md_fallback_objective(&query, objective, sizeof objective) == MD_OK);
  CHECK(strcmp(objective, "capped:15") == 0); /* 25 - 10 */
  md_query fallback;
  md_query_init(&fallback);
  fallback.objective = objective;
  CHECK(md_best(md, &fallback, NULL, "2T 3R 4H 3C 1K", &best) == MD_OK);
  CHECK(best.take_count == 4 && best.best >= 0 && best.players == 0);
  const int final_round[4] = {26, 20, 3, 0};
  InitWin(&query, final_round, 4);
  query.seat = 1;
  CHECK(md_fallback_objective(&query, objective, sizeof objective) == MD_OK);
  CHECK(strcmp(objective, "final:7/1") == 0); /* 26 + 1 - 20 passes, one seat at 26 */
  /* Asked as an objective: a chance, 0 where nothing is set aside yet to stop on. */
  fallback.objective = objective;
  md_eval_result eval;
  CHECK(md_eval(md, &fallback, "2T 3R", &eval) == MD_OK);
  CHECK(eval.stop == 0.0 && eval.roll > 0.0 && eval.roll < 1.0);
  /* Seat 2 needs 24, more than a turn scores (16): every turn is worth 0. */
  query.seat = 2;
  CHECK(md_fallback_objective(&query, objective, sizeof objective) == MD_OK);
  CHECK(strcmp(objective, "final:24/1") == 0);
  const int two_leaders[4] = {26, 26, 20, 0};
  InitWin(&query, two_leaders, 4);
  query.seat = 2;
  CHECK(md_fallback_objective(&query, objective, sizeof objective) == MD_OK);
  CHECK(strcmp(objective, "final:7/2") == 0);
  query.seat = 0; /* seat 0 reached 26 in an earlier round: the game is over */
  EXPECT_ERROR(md_fallback_objective(&query, objective, sizeof objective), MD_ERR_INVALID_ARGUMENT,
               "over");
  InitWin(&query, early, 4);
  EXPECT_ERROR(md_fallback_objective(&query, objective, 9), MD_ERR_INVALID_ARGUMENT,
               "the objective needs 10 bytes, not 9");
  EXPECT_ERROR(md_fallback_objective(&query, NULL, 16), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_fallback_objective(NULL, objective, 16), MD_ERR_INVALID_ARGUMENT, "NULL");
  md_query_init(&query);
  EXPECT_ERROR(md_fallback_objective(&query, objective, sizeof objective), MD_ERR_INVALID_ARGUMENT,
               "win objective only");
}

static void TestInputErrors(md_handle* md) {
  md_query query;
  md_query_init(&query);
  md_eval_result eval;
  md_best_result best;
  /* Bad notation, impossible positions and rolls. */
  EXPECT_ERROR(md_eval(md, &query, "2X", &eval), MD_ERR_INVALID_ARGUMENT, "aside: ");
  EXPECT_ERROR(md_eval(md, &query, "0H", &eval), MD_ERR_INVALID_ARGUMENT, "aside: ");
  EXPECT_ERROR(md_eval(md, &query, "21H", &eval), MD_ERR_INVALID_ARGUMENT, "aside: ");
  EXPECT_ERROR(md_eval(md, &query, "14H", &eval), MD_ERR_INVALID_ARGUMENT, "");
  EXPECT_ERROR(md_best(md, &query, "-", "2T 3Q", &best), MD_ERR_INVALID_ARGUMENT, "roll: ");
  EXPECT_ERROR(md_best(md, &query, "-", "2T 3R", &best), MD_ERR_INVALID_ARGUMENT, "");
  EXPECT_ERROR(md_best(md, &query, "13H", "-", &best), MD_ERR_INVALID_ARGUMENT, "");
  /* Success clears the message. */
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK && strcmp(md_last_error(), "") == 0);

  /* Objectives and rules. */
  query.objective = "reach:x";
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "objective: ");
  query.objective = "best";
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "objective: ");
  query.objective = NULL;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "objective is NULL");
  md_query_init(&query);
  query.rules.dice = 0;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "invalid rules");
  md_query_init(&query);
  query.rules.bonus = -1;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "invalid rules");

  /* Scores: only with win, and valid. */
  const int two[2] = {3, 4};
  md_query_init(&query);
  query.scores = two;
  query.players = 2;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "win objective");
  query.players = 0; /* scores set by mistake: the same message, not one on players */
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT,
               "scores: goes with the win objective");
  query.objective = "win";
  query.scores = NULL;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "needs scores");
  query.scores = two;
  query.players = 1;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "players");
  query.players = 7;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "players");
  query.players = 2;
  query.seat = 2;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "seat 2");
  query.seat = -1;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "seat -1");
  query.seat = 0;
  const int negative[2] = {3, -4};
  query.scores = negative;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "scores: ");
  const int unreachable[2] = {3, 500};
  query.scores = unreachable;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "scores: ");
  const int over[2] = {30, 26}; /* seat 1 reached the target: the game is over */
  query.scores = over;
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "scores: ");
  query.scores = two;
  EXPECT_ERROR(md_best(md, &query, "-", "14H", &best), MD_ERR_INVALID_ARGUMENT, "13 are left");
}

/* md_last_error keeps at most 1024 bytes of a message that quotes the
 * caller's input: a message of exactly 1024 bytes whole; a longer one its
 * first 256 bytes, " ... " and its end, where the reason is (a 100 KB
 * objective too); never a cut inside a UTF-8 character (a 2-byte "\xc3\xa9"
 * repeated) nor an escape; bytes that are no UTF-8, and control characters,
 * as "\xHH". */
static char long_objective[100 * 1024 + 1];

static size_t ErrorLengthFor(md_handle* md, size_t objective_length, char fill) {
  md_query query;
  md_query_init(&query);
  md_eval_result eval;
  memset(long_objective, fill, objective_length);
  long_objective[objective_length] = '\0';
  query.objective = long_objective;
  CHECK(md_eval(md, &query, NULL, &eval) == MD_ERR_INVALID_ARGUMENT);
  return strlen(md_last_error());
}

static void TestLongErrors(md_handle* md) {
  /* The message is a fixed text around the objective, quoted once. */
  const size_t overhead = ErrorLengthFor(md, 10, 'x') - 10;
  char whole[1025];
  snprintf(whole, sizeof whole, "%s", md_last_error());
  const char* after = strstr(whole, "xxxxxxxxxx") + 10; /* the text after the objective */
  CHECK(ErrorLengthFor(md, 11, 'x') == overhead + 11);
  CHECK(ErrorLengthFor(md, 1024 - overhead, 'x') == 1024);
  CHECK(strstr(md_last_error(), " ... ") == NULL);
  CHECK(ErrorLengthFor(md, 1025 - overhead, 'x') == 1024);
  CHECK(strncmp(md_last_error() + 256, " ... ", 5) == 0);
  CHECK(ErrorLengthFor(md, sizeof long_objective - 1, 'x') == 1024);
  CHECK(strncmp(md_last_error(), "objective: ", 11) == 0);
  CHECK(strncmp(md_last_error() + 256, " ... ", 5) == 0);
  CHECK(strcmp(md_last_error() + 1024 - strlen(after), after) == 0); /* the reason stays */
  /* Two-byte characters: the cuts fall between whole ones. */
  md_query query;
  md_query_init(&query);
  md_eval_result eval;
  for (size_t i = 0; i + 1 < sizeof long_objective - 1; i += 2) {
    long_objective[i] = (char)0xc3;
    long_objective[i + 1] = (char)0xa9;
  }
  long_objective[sizeof long_objective - 1] = '\0';
  query.objective = long_objective;
  CHECK(md_eval(md, &query, NULL, &eval) == MD_ERR_INVALID_ARGUMENT);
  const char* message = md_last_error();
  const size_t length = strlen(message);
  CHECK(length <= 1024 && length >= 1020);
  const char* cut = strstr(message, " ... ");
  CHECK(cut != NULL && cut - message >= 254 && cut - message <= 256);
  CHECK((unsigned char)cut[-1] == 0xa9 && (unsigned char)cut[5] == 0xc3);
  CHECK(strcmp(message + length - strlen(after), after) == 0);
  /* Control characters, 4 bytes each as "\x01": the cuts fall between whole escapes. */
  CHECK(ErrorLengthFor(md, 600, '\x01') <= 1024);
  cut = strstr(md_last_error(), " ... ");
  CHECK(cut != NULL && cut - md_last_error() >= 253 && cut - md_last_error() <= 256);
  CHECK(strncmp(cut - 4, "\\x01", 4) == 0 && strncmp(cut + 5, "\\x01", 4) == 0);
  /* Not UTF-8 (a lone continuation byte, an overlong '/', a surrogate, a
   * lead byte at the end) and control characters: escaped, the rest kept. */
  query.objective = "reach:\x80\xc0\xaf\xed\xa0\x80\t\n\x7f\xc3\xa9\xe2\x82";
  CHECK(md_eval(md, &query, NULL, &eval) == MD_ERR_INVALID_ARGUMENT);
  CHECK(strstr(md_last_error(),
               "\\x80\\xc0\\xaf\\xed\\xa0\\x80\\x09\\x0a\\x7f\xc3\xa9\\xe2\\x82") != NULL);
  /* A C1 control (U+009B, a terminal's CSI) is escaped as C0's are; U+00A0 is kept. */
  query.objective = "reach:\xc2\x9b[31m\xc2\xa0";
  CHECK(md_eval(md, &query, NULL, &eval) == MD_ERR_INVALID_ARGUMENT);
  CHECK(strstr(md_last_error(), "\\xc2\\x9b[31m\xc2\xa0") != NULL);
}

static void TestNullArguments(md_handle* md) {
  md_query query;
  md_query_init(&query);
  md_eval_result eval;
  md_best_result best;
  EXPECT_ERROR(md_open(NULL, NULL), MD_ERR_INVALID_ARGUMENT, "out is NULL");
  EXPECT_ERROR(md_eval(NULL, &query, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_eval(md, NULL, NULL, &eval), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_eval(md, &query, NULL, NULL), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_best(NULL, &query, NULL, "13H", &best), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_best(md, NULL, NULL, "13H", &best), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_best(md, &query, NULL, NULL, &best), MD_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(md_best(md, &query, NULL, "13H", NULL), MD_ERR_INVALID_ARGUMENT, "NULL");
  md_close(NULL);
  md_query_init(NULL);
}

/* Tables: missing (a directory without it, a path that does not exist, rules
 * nobody solved), for another player count, corrupt. */
static void TestTableErrors(void) {
  md_query query;
  const int start[3] = {0, 0, 0};
  InitWin(&query, start, 2);
  md_eval_result eval;

  md_handle* md = (md_handle*)&eval; /* any non-NULL value: md_open sets NULL on failure */
  EXPECT_ERROR(md_open(MARTIANDICE_SCRATCH_DIR "/no-such-dir", &md), MD_ERR_NOT_FOUND,
               "no-such-dir");
  CHECK(md == NULL);

  CHECK(md_open(MARTIANDICE_SCRATCH_DIR, &md) == MD_OK && md != NULL);
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_NOT_FOUND, "martiandice solve");
  md_close(md);

  /* A relative path is the current directory's at md_open, not at the
   * first query (which loads the table). */
  char cwd[4096];
  CHECK(getcwd(cwd, sizeof cwd) != NULL && chdir(MARTIANDICE_DATA_DIR) == 0);
  CHECK(md_open(TABLE_FILE, &md) == MD_OK);
  CHECK(chdir("/") == 0);
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK);
  char path[4096];
  CHECK(md_table_path(md, &query, path, sizeof path) == MD_OK && path[0] == '/');
  CHECK(strcmp(path + strlen(path) - strlen("/" TABLE_FILE), "/" TABLE_FILE) == 0);
  CHECK(chdir(cwd) == 0);
  md_close(md);

  CHECK(md_open(NULL, &md) == MD_OK);
  query.rules.target = 31; /* no such table is shipped */
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_NOT_FOUND, "martiandice-p2-d13-b3-t31.mdt");
  md_close(md);

  /* The 2-player table, named explicitly, asked for 3 players. */
  InitWin(&query, start, 3);
  CHECK(md_open(MARTIANDICE_DATA_DIR "/" TABLE_FILE, &md) == MD_OK);
  EXPECT_ERROR(md_eval(md, &query, NULL, &eval), MD_ERR_TABLE, "for 2 players");
  query.players = 2; /* the same handle answers what the table is for */
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK && Near6(eval.win[0], 0.484123));
  md_close(md);

  /* A corrupt table file. */
  const char* corrupt = MARTIANDICE_SCRATCH_DIR "/corrupt.mdt";
  FILE* file = fopen(corrupt, "wb");
  CHECK(file != NULL);
  if (file != NULL) {
    fputs("not a martiandice table, just some bytes that are long enough to be read\n", file);
    fclose(file);
  }
  CHECK(md_open(corrupt, &md) == MD_OK);
  query.players = 2;
  const md_status status = md_eval(md, &query, NULL, &eval);
  CHECK(status == MD_ERR_DATA_LOSS);
  CHECK(strstr(md_last_error(), "corrupt.mdt") != NULL);
  md_close(md);
  remove(corrupt);
}

/* The system's errors: a table that cannot be opened now (no file descriptor
 * left) is MD_ERR_TABLE; a `tables` that is a FIFO (never waited on) or a
 * symbolic link loop is bad input. */
static void TestSystemErrors(void) {
  md_query query;
  const int start[2] = {0, 0};
  InitWin(&query, start, 2);
  md_eval_result eval;
  md_handle* md = NULL;

  CHECK(md_open(MARTIANDICE_DATA_DIR "/" TABLE_FILE, &md) == MD_OK);
  struct rlimit saved;
  CHECK(getrlimit(RLIMIT_NOFILE, &saved) == 0);
  struct rlimit none = saved;
  none.rlim_cur = 3; /* every new descriptor is over it: EMFILE */
  CHECK(setrlimit(RLIMIT_NOFILE, &none) == 0);
  const md_status status = md_eval(md, &query, NULL, &eval);
  const int restored = setrlimit(RLIMIT_NOFILE, &saved) == 0;
  CHECK(restored);
  EXPECT_ERROR(status, MD_ERR_TABLE, TABLE_FILE);
  CHECK(md_eval(md, &query, NULL, &eval) == MD_OK && Near6(eval.win[0], 0.484123));
  md_close(md);

  const char* fifo = MARTIANDICE_SCRATCH_DIR "/fifo.mdt";
  remove(fifo);
  CHECK(mkfifo(fifo, 0600) == 0);
  /* Neither a table nor a folder of them: refused at once (reading it could block). */
  md = (md_handle*)&eval;
  EXPECT_ERROR(md_open(fifo, &md), MD_ERR_INVALID_ARGUMENT, "is a FIFO (named pipe)");
  CHECK(md == NULL);
  remove(fifo);
  /* A symbolic link to itself: as LocateTable judges one inside a folder, bad input. */
  const char* loop = MARTIANDICE_SCRATCH_DIR "/loop.mdt";
  remove(loop);
  CHECK(symlink("loop.mdt", loop) == 0);
  EXPECT_ERROR(md_open(loop, &md), MD_ERR_INVALID_ARGUMENT, "is a symbolic link loop");
  CHECK(md == NULL);
  remove(loop);
}

int main(void) {
  TestVersionAndNames();
  md_handle* md = NULL;
  CHECK(md_open(MARTIANDICE_DATA_DIR, &md) == MD_OK);
  if (md == NULL) {
    fprintf(stderr, "md_open failed: %s\n", md_last_error());
    return 1;
  }
  TestTurnEval(md);
  TestTurnBest(md);
  TestNoDiceLeft(md);
  TestWin(md);
  TestFallback(md);
  TestInputErrors(md);
  TestLongErrors(md);
  TestNullArguments(md);
  md_close(md);
  TestTableErrors();
  TestSystemErrors();
  printf("c_api_test: %d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
