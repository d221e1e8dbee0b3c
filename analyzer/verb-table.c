/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "verbs.h"

/* The order here is the order of `bootrace --help`. */
const Verb verb_table[] = {
        { "lint", verb_lint, "lint [--root=DIR] [--target=NAME...|--systemd=N] [PATH...]",
          "find boot-ordering races in unit files, judged for each systemd version asked for" },
        { "fix", verb_fix, "fix [--root=DIR] [--target=NAME...] [--drop-in] [--write] PATH|UNIT...",
          "the minimal, precise, cycle-free repair of a unit's races: a diff or a drop-in" },
        { "show", verb_show, "show [--root=DIR] [--format=text|json] UNIT|PATH...",
          "print a unit as systemd would load it: settings with file:line, drop-ins, aliases" },
        { "graph", verb_graph, "graph [--root=DIR|--target=NAME] [--format=text|json|dot] [UNIT|PATH...]",
          "the dependencies systemd N gives units, implicit and default ones included, with origins" },
        { "stats", verb_stats, "stats [-D DIR|--file=FILE...] [--unit=UNIT...] [--format=...]",
          "per-unit outcomes and failure rates over repeated boots, from journals" },
        { "chain", verb_chain, "chain [UNIT] [--live|--boot=ID] [-D DIR|--file=FILE...]",
          "the critical chain of a unit: live from PID 1, or of a past boot from the journal" },
        { "probe", verb_probe, "probe [--like=UNIT] [-p KEY=VALUE...] [--timeout=SEC] [-- COMMAND...]",
          "run a command in a transient unit with a unit's sandbox; report done/failed and its journal" },
        { "drift", verb_drift, "drift [--root=DIR] [-H HOST|-M NAME] [--format=text|json] [UNIT...]",
          "the dependencies the running systemd holds against the model's, with origins" },
        { "explain", verb_explain, "explain [CHECK...]", "what a check looks for, why it matters, references" },
};
const size_t verb_table_size = ELEMENTSOF(verb_table);
