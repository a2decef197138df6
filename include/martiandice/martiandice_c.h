/* The C API of martiandice: best moves and values of Martian Dice positions
 * for C programs and foreign-function interfaces (Python ctypes, ...), over
 * the C++ library (martiandice/advisor.h, martiandice/win_query.h). Shipped as
 * the shared library libmartiandice_c.so (CMake target martiandice::martiandice_c).
 *
 * Conventions
 * - Every function that can fail returns an md_status: MD_OK (0) on success,
 *   else an error code; the outputs are then unspecified. md_last_error()
 *   gives the message of the calling thread's last failed call.
 * - No C++ exception ever crosses this interface; out of memory is reported
 *   as MD_ERR_NO_MEMORY, any other unexpected failure as MD_ERR_INTERNAL.
 * - Dice are given in the notation of the command line: face letters
 *   T R H C K (Tank, Death Ray, Human, Cow, Chicken), each optionally preceded
 *   by a count, "2T 3R 4H"; "-", "" or NULL for no dice.
 * - Results are plain structs of fixed size filled by the library: the
 *   caller owns them (stack or heap); nothing in them needs freeing.
 * - Thread safety: a handle may be used by any number of threads at once
 *   (its caches are locked internally); md_last_error() is per thread.
 *
 * Example (error handling shortened):
 *
 *   md_handle* md = NULL;
 *   if (md_open(NULL, &md) != MD_OK) { puts(md_last_error()); return 1; }
 *   md_query query;
 *   md_query_init(&query);  // official rules, objective "ev"
 *   md_best_result r;
 *   if (md_best(md, &query, "3T 2R 4H 1K", "1R 1H 1C", &r) == MD_OK && r.best >= 0)
 *     printf("take %d %s, then %s\n", r.takes[r.best].count,
 *            md_face_name(r.takes[r.best].take), md_then_name(r.takes[r.best].then));
 *   md_close(md);
 *
 * prints "take 1 ray, then roll". See docs/C_API.md.
 */
#ifndef MARTIANDICE_MARTIANDICE_C_H_
#define MARTIANDICE_MARTIANDICE_C_H_

#if defined(__GNUC__)
#define MD_API __attribute__((visibility("default")))
#else
#define MD_API
#endif

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes. */
typedef enum md_status {
  MD_OK = 0,
  /* Bad input, the message names it: a NULL argument, bad dice notation, an
   * impossible position or roll, an unknown objective, rules out of range,
   * bad scores or seat, a `tables` (or a table's place in it) that is
   * neither a file nor a folder (a FIFO, a device, a symbolic link loop). */
  MD_ERR_INVALID_ARGUMENT = 1,
  /* No policy table for the win query's rules and players where it was
   * looked for (the message lists where and how to make it), or the path
   * given to md_open does not exist. */
  MD_ERR_NOT_FOUND = 2,
  /* A table that cannot answer: another rule set or player count, a newer
   * format version, over the size limit, an unreadable file (permissions, or
   * the system's error: too many open files, an I/O error), or a `tables`
   * given to md_open that cannot be looked at. */
  MD_ERR_TABLE = 3,
  /* A corrupt or truncated table file. */
  MD_ERR_DATA_LOSS = 4,
  MD_ERR_NO_MEMORY = 5,
  MD_ERR_INTERNAL = 6
} md_status;

/* The faces, in the order of the notation. */
typedef enum md_face { MD_TANK = 0, MD_RAY = 1, MD_HUMAN = 2, MD_COW = 3, MD_CHICKEN = 4 } md_face;

/* What to do after a choice; MD_EITHER when stopping and rolling on are worth
 * the same (within 1e-12 relative; the table's tolerance for win queries). */
typedef enum md_then { MD_STOP = 0, MD_ROLL = 1, MD_EITHER = 2 } md_then;

#define MD_MAX_PLAYERS 6 /* seats in a game: 2..MD_MAX_PLAYERS */
#define MD_MAX_TAKES 4   /* a roll has at most 4 legal takes: ray, human, cow, chicken */
#define MD_DICE_TEXT 48  /* buffer size of dice notation in results (with the NUL) */

/* The rule constants; md_query_init sets the official ones (13, 3, 25). */
typedef struct md_rules {
  int dice;   /* dice rolled at the start of a turn, 1..20 */
  int bonus;  /* points for one of each earthling type, 0..100 */
  int target; /* game total that ends the game, 1..200 (win queries) */
} md_rules;

/* What to maximise and, for "win", the game situation. The strings and the
 * scores array are only read during the call. */
typedef struct md_query {
  md_rules rules;
  /* "ev" (expected score), "reach:K" (probability of scoring at least K),
   * "capped:M" (expected min(score, M)), "final:M/K" (1 for M or more, 1/(K+1)
   * for M - 1, else 0: the final round's chance to pass the leader), K and M
   * in 0..1000 (final's M in 1..1000, its K in 1..5), or "win" (the mover's
   * probability of winning the game, from a policy table). */
  const char* objective;
  /* "win" only (else NULL and 0): every seat's game total, seat 0 first,
   * `players` entries (2..MD_MAX_PLAYERS), and the seat to move (0-based). */
  const int* scores;
  int players;
  int seat;
} md_query;

/* Stop-or-roll values at a position. For turn objectives the values are in
 * the objective's unit (points for "ev", probabilities for "reach"); for
 * "win" they are the mover's probability of winning the game. */
typedef struct md_eval_result {
  int dice_left;
  int can_stop; /* 0 before the first roll: stopping is not allowed */
  double stop;  /* value of stopping now, if can_stop */
  int can_roll; /* 0 when no dice are left */
  double roll;  /* value of rolling on, if can_roll */
  double value; /* the better of the two */
  md_then action;
  /* "win" only (else 0): every seat's probability of winning, at the start of
   * this turn, seats 0..players-1. */
  int players;
  double win[MD_MAX_PLAYERS];
} md_eval_result;

/* One legal take from a roll: set aside every die of one face. */
typedef struct md_take {
  md_face take;                   /* MD_RAY or an earthling */
  int count;                      /* dice set aside by this take */
  char aside_after[MD_DICE_TEXT]; /* set aside after it (this roll's tanks included) */
  double stop;                    /* value if the player then stops */
  int can_roll;                   /* 0 when no dice are left after the take */
  double roll;                    /* value if the player then rolls on, if can_roll */
  double value;                   /* the better of the two */
  md_then then;
  int optimal; /* 1 if the value equals the best take's (several may) */
} md_take;

/* Every legal take from a roll, in face order, and the chosen one. */
typedef struct md_best_result {
  int turn_over;       /* 1 when no take is legal: the turn ends and is scored */
  int turn_over_score; /* the score in that case */
  int take_count;      /* number of entries of takes (0 if turn_over) */
  md_take takes[MD_MAX_TAKES];
  /* Index in takes of the take to play: the first optimal one, or for "win"
     the tie convention's pick among them (docs/PLAYERS.md); -1 if turn_over. */
  int best;
  double value; /* value of the roll under optimal play */
  /* "win" only (else 0): as in md_eval_result. */
  int players;
  double win[MD_MAX_PLAYERS];
} md_best_result;

/* Opaque handle: the policy table location and caches of solved turns and
 * loaded tables. Thread-safe (see above). */
typedef struct md_handle md_handle;

/* The library version, "MAJOR.MINOR.PATCH" (static storage). */
MD_API const char* md_version(void);

/* Opens a handle into *out (set to NULL on failure). `tables` is where win
 * queries find their policy tables: a table file or a directory holding them,
 * and nothing else is searched then; or NULL for the default search
 * ($MARTIANDICE_DATA, the installed data directory, the source tree's data/:
 * LocateTable in martiandice/table.h; see the README, "Where the tables are
 * found"). A relative `tables` is taken from the current directory at
 * md_open, not at a later query. Tables are loaded by the first win query
 * that needs them: a file that is no table is refused by the first win query
 * (MD_ERR_DATA_LOSS or MD_ERR_TABLE). Errors: MD_ERR_INVALID_ARGUMENT (out is
 * NULL, or `tables` is neither a file nor a directory: a FIFO, a device, a
 * symbolic link loop), MD_ERR_NOT_FOUND (`tables` does not exist),
 * MD_ERR_TABLE (it cannot be looked at: permissions, a name too long). */
MD_API md_status md_open(const char* tables, md_handle** out);

/* Frees the handle and everything it cached. NULL is allowed. The handle must
 * not be in use by another thread, and is not valid after: a call on it, or
 * a second md_close, is undefined (set your pointer to NULL). */
MD_API void md_close(md_handle* handle);

/* Sets *query to the official rules, objective "ev", no scores, seat 0. */
MD_API void md_query_init(md_query* query);

/* Stop-or-roll values at `aside` (what is set aside this turn; NULL, "" or
 * "-" for a fresh turn). For "win" where no table covers the game and none
 * is named (md_open's `tables` NULL), a final-round context is answered by
 * solving that round (every seat still to move playing to win; md_table_path
 * still answers MD_ERR_NOT_FOUND). Errors: MD_ERR_INVALID_ARGUMENT (NULL
 * handle, query or out; bad query; bad notation; a position the rules cannot
 * produce); for "win": MD_ERR_NOT_FOUND (no table, before the final round),
 * MD_ERR_TABLE, MD_ERR_DATA_LOSS (the table), and MD_ERR_INVALID_ARGUMENT for
 * a table's place that holds no file. */
MD_API md_status md_eval(md_handle* handle, const md_query* query, const char* aside,
                         md_eval_result* out);

/* Every legal take from `roll` rolled at `aside`, ranked, and the best one.
 * The roll must show exactly the dice left to roll. Errors: as md_eval, and
 * MD_ERR_INVALID_ARGUMENT for a NULL or wrong roll or no dice left. */
MD_API md_status md_best(md_handle* handle, const md_query* query, const char* aside,
                         const char* roll, md_best_result* out);

/* The policy table file that answers the win query `query` (loaded and
 * checked as md_eval would), copied with its NUL into `buffer` of `size`
 * bytes. Errors: MD_ERR_INVALID_ARGUMENT (NULL argument, not a valid win
 * query, `size` too small: the message gives the size needed); the table
 * errors of md_eval. */
MD_API md_status md_table_path(md_handle* handle, const md_query* query, char* buffer, size_t size);

/* The turn objective that `martiandice play`, the coach and the page play by
 * where no policy table covers a win query's game (4 to 6 players, house
 * rules; before the final round md_eval and md_best answer MD_ERR_NOT_FOUND
 * there): before the final round "capped:M", M the points the mover still
 * needs to reach the target (an M no turn scores plays as "ev"); in the
 * final round (which md_eval solves exactly instead) "final:M/K", the
 * chance to pass the leader (M points) or tie with the K seats at its total
 * (M - 1 points, worth 1/(K+1)), a chance rather than points. Ask it as the
 * objective of a query of the same rules with scores NULL, players 0 and
 * seat 0. Copied with its NUL into `buffer` of `size` bytes (16 always
 * suffice). Reads no table. Errors: MD_ERR_INVALID_ARGUMENT (NULL argument,
 * not a valid win query, a game that is over, `size` too small). */
MD_API md_status md_fallback_objective(const md_query* query, char* buffer, size_t size);

/* The message of the calling thread's last failed call ("" if it succeeded):
 * valid UTF-8 on one line (a byte of the caller's input that is no UTF-8
 * character, and a control character, are written "\xHH"), at most 1024
 * bytes (a longer one keeps its first 256 bytes and its end, where the reason
 * is, joined by " ... ", cutting at character boundaries). Valid until the
 * thread's next call into this library. Never NULL. */
MD_API const char* md_last_error(void);

/* Names, for messages: "MD_OK", "MD_ERR_INVALID_ARGUMENT", ...; "ray",
 * "human", ...; "stop", "roll", "either". Static strings; "?" if out of range. */
MD_API const char* md_status_name(md_status status);
MD_API const char* md_face_name(md_face face);
MD_API const char* md_then_name(md_then then);

#ifdef __cplusplus
}
#endif

#endif /* MARTIANDICE_MARTIANDICE_C_H_ */
