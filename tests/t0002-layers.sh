#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The layers of analyzer/ (README.md, "Architecture"): every include goes to the file's own layer or to one its
# row of the table allows. tests/check-layers.sh does the checking; here it runs over the real tree, and over
# copies with one wrong include each, to show that it fails on them.
. "$(dirname "$0")/lib.sh"

check=$top_srcdir/tests/check-layers.sh
readme=$top_srcdir/README.md
src=$top_srcdir/analyzer

test_expect "analyzer/ follows the README's layer table" "$check" "$readme" "$src"

test_expect "every directory of analyzer/ is a layer of the table, and every layer a directory" sh -c '
        tbl=$(awk "/^## Architecture/{a=1; next} a && /^## /{exit} a && /^\| \`/" "$0" |
              cut -d"|" -f3 | sed "s/[\` ]//g; s|^analyzer/||; s|/\$||" | grep . | sort)
        dirs=$(cd "$1" && find . -mindepth 1 -maxdepth 1 -type d ! -name ".*" | sed "s|^\./||" | sort)
        [ "$tbl" = "$dirs" ] || { echo "table: $tbl"; echo "tree: $dirs"; exit 1; }' "$readme" "$src"

# A copy of the tree with one change; the checker must fail and name the line.
mutant() {
        rm -rf "$TMP/src" && cp -r "$src" "$TMP/src" && find "$TMP/src" -name '*.o' -delete
}
expect_violation() { # description, file (relative), pattern the report must contain
        local out rc=0
        out=$("$check" "$readme" "$TMP/src" 2>&1) || rc=$?
        [ $rc = 1 ] || { echo "exit $rc, expected 1: $out"; return 1; }
        grep -q -- "$2" <<< "$out" || { echo "no line matching '$2' in: $out"; return 1; }
}

mutant && sed -i '0,/^#include "/s//#include "lint\/finding.h"\n#include "/' "$TMP/src/rules/rules.h"
test_expect "a wrong-way include (rules includes lint) fails, naming the file and line" \
        expect_violation rules "rules/rules.h:[0-9]*: rules includes lint"

mutant && printf '#include "cli.h"\n' >> "$TMP/src/report/format.h"
test_expect "a layer including the top fails" expect_violation report "report/format.h:[0-9]*: report includes top"

mutant && sed -i '0,/^#include "basic\/util.h"/s//#include "util.h"/' "$TMP/src/basic/json.h"
test_expect "an include without its layer directory fails" \
        expect_violation basic 'basic/json.h:[0-9]*: #include "util.h" names no header'

mutant && mkdir "$TMP/src/extra" && printf '#include "basic/util.h"\n' > "$TMP/src/extra/x.c"
test_expect "a source file outside the layers fails" expect_violation extra "extra/x.c: not in a layer directory"

mutant && printf '#include "journal/journal-events.h"\n' >> "$TMP/src/model/graph.h"
test_expect "two analyses side by side: model may not include journal" \
        expect_violation model "model/graph.h:[0-9]*: model includes journal"

mutant && printf '#include "model/model-internal.h"\n' >> "$TMP/src/lint/lint.h"
test_expect "another layer including a layer's internal header fails" \
        expect_violation internal 'lint/lint.h:[0-9]*: #include "model/model-internal.h": a layer.s internal header'
