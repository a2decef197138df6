/* The C API's answers to queries read on stdin, for the test that sends the
 * same queries through every front end (web/test/frontends.test.mjs). Each
 * input line is tab-separated:
 *   command objective aside roll dice bonus target seat scores
 * (command "eval" or "best"; "-" for no aside, no roll or no scores; scores
 * comma-separated). Each output line is one JSON object of the result
 * struct's fields, doubles printed with %.17g (they read back exactly), or
 * {"error":"MD_ERR_...","message":"..."}. A win query no table answers
 * (MD_ERR_NOT_FOUND) is asked again as the other front ends answer it, with
 * md_fallback_objective's objective, named in a "fallback" field.
 * Usage: martiandice_c_answers DATA_DIR.
 * The objects are this program's own; the test compares their values with
 * the other front ends' JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "martiandice/martiandice_c.h"

enum { kFields = 9, kLine = 4096 };

/* Splits `line` at tabs into `fields` (in place); returns the count. */
static int Split(char* line, char** fields) {
  int n = 0;
  char* p = line;
  while (n < kFields) {
    fields[n++] = p;
    char* tab = strchr(p, '\t');
    if (tab == NULL) break;
    *tab = '\0';
    p = tab + 1;
  }
  return n;
}

static const char* Dice(const char* field) { return strcmp(field, "-") == 0 ? NULL : field; }

/* Prints a string as a JSON string (the API's strings are ASCII notation). */
static void PrintString(const char* s) {
  putchar('"');
  for (; *s != '\0'; ++s) {
    if (*s == '"' || *s == '\\') putchar('\\');
    putchar(*s);
  }
  putchar('"');
}

static void PrintWin(int players, const double* win) {
  printf(",\"players\":%d,\"win\":[", players);
  for (int i = 0; i < players; ++i) printf("%s%.17g", i > 0 ? "," : "", win[i]);
  putchar(']');
}

/* The objective a fallback answer was asked with, as a field; "" without. */
static char fallback_field[64];

static void PrintEval(const md_eval_result* r) {
  printf("{%s\"dice_left\":%d,\"can_stop\":%d,\"stop\":%.17g,\"can_roll\":%d,\"roll\":%.17g,",
         fallback_field, r->dice_left, r->can_stop, r->stop, r->can_roll, r->roll);
  printf("\"value\":%.17g,\"action\":\"%s\"", r->value, md_then_name(r->action));
  PrintWin(r->players, r->win);
  puts("}");
}

static void PrintBest(const md_best_result* r) {
  printf("{%s\"turn_over\":%d,\"turn_over_score\":%d,\"best\":%d,\"value\":%.17g,\"takes\":[",
         fallback_field, r->turn_over, r->turn_over_score, r->best, r->value);
  for (int i = 0; i < r->take_count; ++i) {
    const md_take* t = &r->takes[i];
    printf("%s{\"take\":\"%s\",\"count\":%d,\"aside_after\":", i > 0 ? "," : "",
           md_face_name(t->take), t->count);
    PrintString(t->aside_after);
    printf(",\"stop\":%.17g,\"can_roll\":%d,\"roll\":%.17g,\"value\":%.17g,\"then\":\"%s\",", t->stop,
           t->can_roll, t->roll, t->value, md_then_name(t->then));
    printf("\"optimal\":%d}", t->optimal);
  }
  putchar(']');
  PrintWin(r->players, r->win);
  puts("}");
}

static void PrintError(md_status status) {
  printf("{\"error\":\"%s\",\"message\":", md_status_name(status));
  PrintString(md_last_error());
  puts("}");
}

/* Answers the line `f`'s command for `q`, printing the result when MD_OK. */
static md_status Answer(md_handle* md, const md_query* q, char** f) {
  if (strcmp(f[0], "eval") == 0) {
    md_eval_result r;
    const md_status status = md_eval(md, q, Dice(f[2]), &r);
    if (status == MD_OK) PrintEval(&r);
    return status;
  }
  md_best_result r;
  const md_status status = md_best(md, q, Dice(f[2]), Dice(f[3]), &r);
  if (status == MD_OK) PrintBest(&r);
  return status;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fputs("usage: martiandice_c_answers DATA_DIR < queries.tsv\n", stderr);
    return 2;
  }
  md_handle* md = NULL;
  if (md_open(argv[1], &md) != MD_OK) {
    fprintf(stderr, "martiandice_c_answers: %s\n", md_last_error());
    return 2;
  }
  static char line[kLine];
  while (fgets(line, sizeof line, stdin) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    char* f[kFields];
    if (Split(line, f) != kFields) {
      fprintf(stderr, "martiandice_c_answers: a line needs %d tab-separated fields\n", kFields);
      md_close(md);
      return 2;
    }
    md_query q;
    md_query_init(&q);
    q.objective = f[1];
    q.rules.dice = atoi(f[4]);
    q.rules.bonus = atoi(f[5]);
    q.rules.target = atoi(f[6]);
    int scores[MD_MAX_PLAYERS];
    if (strcmp(f[8], "-") != 0) {
      for (char* p = f[8]; p != NULL && q.players < MD_MAX_PLAYERS; ++q.players) {
        scores[q.players] = atoi(p);
        p = strchr(p, ',');
        if (p != NULL) ++p;
      }
      q.scores = scores;
      q.seat = atoi(f[7]);
    }
    fallback_field[0] = '\0';
    md_status status = Answer(md, &q, f);
    char objective[16];
    if (status == MD_ERR_NOT_FOUND &&
        md_fallback_objective(&q, objective, sizeof objective) == MD_OK) {
      snprintf(fallback_field, sizeof fallback_field, "\"fallback\":\"%s\",", objective);
      md_query fallback;
      md_query_init(&fallback);
      fallback.rules = q.rules;
      fallback.objective = objective;
      status = Answer(md, &fallback, f);
    }
    if (status != MD_OK) PrintError(status);
    fflush(stdout);
  }
  md_close(md);
  return 0;
}
