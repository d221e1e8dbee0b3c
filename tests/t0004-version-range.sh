#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The modelled range: from the oldest to the newest base model of the rules (rules/base-NNN.xml), as --version
# says. A version outside it, from --systemd, --target or the root, is an error (exit 2) with one line naming the
# range; --nearest-model judges with the nearest end of it instead and says so in every report format. A rolling
# target is judged with the newest base model, whatever that is.
. "$(dirname "$0")/lib.sh"
U=$FIXTURES/examples/open-vm-tools.service

range_in() { sed -n 's/^<base systemd="\([0-9]*\)".*/\1/p' "$1"/base-*.xml | sort -n | sed -n '1p;$p' | tr '\n' ' '; }
read -r OLDEST NEWEST <<< "$(range_in "$BOOTRACE_RULES_DIR")"
ABOVE=$((NEWEST + 1)) BELOW=$((OLDEST - 1))
export OLDEST NEWEST ABOVE BELOW U

test_expect "--version names the modelled range $OLDEST-$NEWEST" sh -c '
        bootrace() { "$BOOTRACE" "$@"; }; bootrace --version | grep -qx "models systemd $OLDEST-$NEWEST (rules in .*)"'

# out_of_range TEXT CMD...: exit 2, stderr one line naming TEXT and the range, nothing on stdout
out_of_range() {
        local want=$1 rc=0; shift
        "$@" > "$TMP/oor.out" 2> "$TMP/oor.err" || rc=$?
        cat "$TMP/oor.err"
        [ "$rc" = 2 ] || { echo "exit $rc, expected 2"; return 1; }
        [ "$(wc -l < "$TMP/oor.err")" = 1 ] && [ ! -s "$TMP/oor.out" ] &&
                grep -qx "bootrace: systemd [0-9]* ($want) is outside the modelled range $OLDEST-$NEWEST; --nearest-model judges it with systemd [0-9]*" "$TMP/oor.err"
}
for verb in lint graph show fix; do
        test_expect "$verb --systemd=$ABOVE: exit 2 naming the range" out_of_range --systemd bootrace $verb --systemd=$ABOVE "$U"
        test_expect "$verb --systemd=$BELOW: exit 2 naming the range" out_of_range --systemd bootrace $verb --systemd=$BELOW "$U"
done

# rules with a target newer than the newest base model, and a root whose systemd is
mkdir "$TMP/rules"
cp -R "$BOOTRACE_RULES_DIR"/. "$TMP/rules/"
chmod -R u+w "$TMP/rules"
sed -i "s|</targets>|  <target name=\"test-future\" systemd=\"$ABOVE\" status=\"verified\" source=\"t0003\"/>\n</targets>|" \
        "$TMP/rules/targets.xml"
mkdir -p "$TMP/root/usr/lib/systemd" "$TMP/root/etc/systemd/system"
: > "$TMP/root/usr/lib/systemd/libsystemd-shared-$ABOVE.so"
cp "$U" "$TMP/root/etc/systemd/system/"
test_expect "a target newer than the newest base model loads" sh -c '
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" __complete targets | grep -qx test-future' _ "$TMP/rules"
with_rules() { BOOTRACE_RULES_DIR=$TMP/rules "$@"; }
test_expect "lint --target of it: exit 2 naming the target and the range" \
        with_rules out_of_range --target=test-future bootrace lint --target=test-future "$U"
test_expect "lint --root with systemd $ABOVE in it: exit 2 naming the root and the range" \
        out_of_range "found in --root=$TMP/root" bootrace lint --root="$TMP/root"
test_expect "graph --root likewise" out_of_range "found in --root=$TMP/root" bootrace graph --root="$TMP/root"

# --nearest-model: judged with the newest model, and every format says so
note="judged with systemd $NEWEST, the nearest model to systemd $ABOVE (--systemd), which is outside the modelled range $OLDEST-$NEWEST (--nearest-model)"
export note
n() { bootrace --nearest-model --systemd=$ABOVE "$@"; }
test_expect "lint text: the note is the first line, also with -q" sh -c '
        "$BOOTRACE" lint -q --nearest-model --systemd=$ABOVE "$U" > "$1"; [ $? -le 1 ] || exit 1
        head -1 "$1"; [ "$(head -1 "$1")" = "note: $note" ]' _ "$TMP/lint.txt"
test_expect "lint json: nearest_model {asked, judged, oldest, newest, from} and systemd $NEWEST" sh -c '
        "$BOOTRACE" lint --nearest-model --systemd=$ABOVE --format=json "$U" > "$1"; [ $? -le 1 ] || exit 1
        jq -e ".systemd == $NEWEST and .nearest_model == {asked: $ABOVE, judged: $NEWEST, oldest: $OLDEST, newest: $NEWEST, from: \"option\"}" "$1"' \
        _ "$TMP/lint.json"
test_expect "lint sarif: the run's properties carry nearest_model and the note" sh -c '
        "$BOOTRACE" lint --nearest-model --systemd=$ABOVE --format=sarif "$U" > "$1"; [ $? -le 1 ] || exit 1
        jq -e ".runs[0].properties | .systemd == $NEWEST and .nearest_model.asked == $ABOVE and .note == env.note" "$1"' \
        _ "$TMP/lint.sarif"
test_expect "lint junit: properties systemd-asked and nearest-model" sh -c '
        "$BOOTRACE" lint --nearest-model --systemd=$ABOVE --format=junit "$U" > "$1"; [ $? -le 1 ] || exit 1
        grep -q "<property name=\"systemd\" value=\"$NEWEST\"/>" "$1" &&
        grep -q "<property name=\"systemd-asked\" value=\"$ABOVE\"/>" "$1" &&
        grep -qF "<property name=\"nearest-model\" value=\"$note\"/>" "$1"' _ "$TMP/lint.xml"
test_expect "graph text and dot: the note as the first, comment line" sh -c '
        "$BOOTRACE" graph --nearest-model --systemd=$ABOVE "$U" | head -1 | grep -qxF "# note: $note" &&
        "$BOOTRACE" graph --nearest-model --systemd=$ABOVE --format=dot "$U" | head -1 | grep -qxF "// note: $note" &&
        "$BOOTRACE" graph --nearest-model --systemd=$ABOVE --cycles "$U" | head -1 | grep -qxF "# note: $note"'
test_expect "graph json (edges and cycles) and show json: nearest_model" sh -c '
        "$BOOTRACE" graph --nearest-model --systemd=$ABOVE --format=json "$U" |
                jq -e ".systemd == $NEWEST and .nearest_model.asked == $ABOVE" > /dev/null &&
        "$BOOTRACE" graph --nearest-model --systemd=$ABOVE --cycles --format=json "$U" |
                jq -e ".systemd == $NEWEST and .nearest_model.judged == $NEWEST" > /dev/null &&
        "$BOOTRACE" show --nearest-model --systemd=$ABOVE --format=json "$U" |
                jq -e ".systemd == $NEWEST and .nearest_model.from == \"option\"" > /dev/null'
test_expect "show text: the note first" sh -c '
        "$BOOTRACE" show --nearest-model --systemd=$ABOVE "$U" | head -1 | grep -qxF "# note: $note"'
test_expect "below the range: judged with the oldest model" sh -c '
        "$BOOTRACE" lint --nearest-model --systemd=$BELOW --format=json "$U" |
                jq -e ".systemd == $OLDEST and .nearest_model.asked == $BELOW"'
test_expect "fix: the note on stderr, the repair judged for systemd $NEWEST" sh -c '
        rc=0; "$BOOTRACE" fix --nearest-model --systemd=$ABOVE "$U" > /dev/null 2> "$1" || rc=$?
        cat "$1"; [ $rc -le 1 ] && grep -qF "bootrace: warning: fix: $note" "$1"' _ "$TMP/fix.err"
test_expect "within the range, no note anywhere" sh -c '
        "$BOOTRACE" lint --nearest-model --systemd=$NEWEST --format=json "$U" | jq -e "has(\"nearest_model\") | not" &&
        ! "$BOOTRACE" lint -q --nearest-model --systemd=$NEWEST "$U" | grep -q "^note:"'
test_expect "--target and --root out of range with --nearest-model name where the version came from" sh -c '
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" lint -q --nearest-model --target=test-future "$U" | head -1 |
                grep -q "^note: judged with systemd $NEWEST, the nearest model to systemd $ABOVE (--target=test-future)" &&
        "$BOOTRACE" lint --nearest-model --root="$2" --format=json | jq -e ".nearest_model.from == \"root\""' \
        _ "$TMP/rules" "$TMP/root"

# rolling targets follow the newest base model
test_expect "--target=arch (rolling) is judged with the newest base model, no opt-in needed" sh -c '
        "$BOOTRACE" lint --target=arch --format=json "$U" | jq -e ".systemd == $NEWEST and (has(\"nearest_model\") | not)"'
# (a future version's model: no fixed release's enablement, <target>, yet; a rolling release's goes with the newest
# model, and left in the old one it is refused)
sed -e "s/^<base systemd=\"[0-9]*\"/<base systemd=\"$ABOVE\"/" -e "/^<target /,/^<\/target>/d" "$TMP/rules/base-$NEWEST.xml" \
        > "$TMP/rules/base-$ABOVE.xml"
test_expect "... with arch's <target> left in base-$NEWEST.xml, the rules are refused, naming the newer model" sh -c '
        ! BOOTRACE_RULES_DIR=$1 $2 range 1 1 > "$1.out" 2>&1 && cat "$1.out" &&
        grep -q "base-$NEWEST.xml:[0-9]*: error: <target name=\"arch\">: arch has systemd $ABOVE, whose base model is .*base-$ABOVE.xml" \
                "$1.out"' _ "$TMP/rules" "$(wrap_program "$top_builddir/tests/unit/rules-query")"
sed -n "/^<target name=\"arch\"/,/^<\/target>/p" "$TMP/rules/base-$NEWEST.xml" > "$TMP/arch.el"
sed -i "/^<target name=\"arch\"/,/^<\/target>/d" "$TMP/rules/base-$NEWEST.xml"
sed -i "/^<\/base>/e cat $TMP/arch.el" "$TMP/rules/base-$ABOVE.xml"
test_expect "a base model $ABOVE added (arch's element moved to it): the range grows, tumbleweed and the future target are judged with it" sh -c '
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" --version | grep -q "^models systemd $OLDEST-$ABOVE " &&
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" lint --target=tumbleweed --format=json "$U" | jq -e ".systemd == $ABOVE" &&
        BOOTRACE_RULES_DIR=$1 "$BOOTRACE" lint --target=test-future --format=json "$U" | jq -e ".systemd == $ABOVE"' \
        _ "$TMP/rules"
