#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The lab tests' own helpers (lib.sh): lab_model_newest gives the newest modelled systemd version from bootrace,
# which follows the base models in the rules directory; lab_judged sets a moving suite (forky) aside with a skip
# that says why while its systemd is newer than that, runs it once the model catches up, and fails a suite that is
# not moving. Fake trees and fake rules only: no lab, no root needed.
. "$(dirname "$0")/lib.sh"

newest_in() { sed -n 's/^<base systemd="\([0-9]*\)".*/\1/p' "$1"/base-*.xml | sort -n | tail -1; }

test_expect "lab_model_newest is the newest base model of the rules" sh -c '
        got=$1 want=$2; echo "bootrace: [$got], rules: [$want]"; [ -n "$want" ] && [ "$got" = "$want" ]' _ \
        "$(lab_model_newest)" "$(newest_in "$BOOTRACE_RULES_DIR")"

# a copy of the rules with one base model more, a version past every real one
mkdir "$TMP/rules"
cp -R "$BOOTRACE_RULES_DIR"/. "$TMP/rules/"
chmod -R u+w "$TMP/rules"
fake=$(( $(newest_in "$BOOTRACE_RULES_DIR") + 100 ))
# (a future version's model: no fixed release's enablement, <target>, yet; a rolling release's (arch) goes with the
# newest model, as in t0004: left in the old one, the rules are refused)
newest=$(newest_in "$BOOTRACE_RULES_DIR")
sed -e "s/^<base systemd=\"[0-9]*\"/<base systemd=\"$fake\"/" -e "/^<target /,/^<\/target>/d" \
        "$TMP/rules/base-$newest.xml" > "$TMP/rules/base-$fake.xml"
sed -n "/^<target name=\"arch\"/,/^<\/target>/p" "$TMP/rules/base-$newest.xml" > "$TMP/arch.el"
sed -i "/^<target name=\"arch\"/,/^<\/target>/d" "$TMP/rules/base-$newest.xml"
sed -i "/^<\/base>/e cat $TMP/arch.el" "$TMP/rules/base-$fake.xml"
test_expect "lab_model_newest follows the data (a base model $fake added)" sh -c '
        echo "got [$1]"; [ "$1" = "$2" ]' _ "$(BOOTRACE_RULES_DIR=$TMP/rules lab_model_newest)" "$fake"

# fake trees: only what lab_tree_systemd reads
tree() { mkdir -p "$TMP/srv/$1/usr/lib/x86_64-linux-gnu/systemd" && : > "$TMP/srv/$1/usr/lib/x86_64-linux-gnu/systemd/libsystemd-shared-$2.so"; }
tree trixie 257
tree forky 262

# judged NEWEST SUITE...: runs lab_judged with that newest version (the fake bootrace of lab_model_newest);
# prints LAB_JUDGED on the first line, then the TAP lines it wrote
judged() {
        (
                fake_newest=$1; shift
                lab_model_newest() { echo "$fake_newest"; }
                LAB_SRV=$TMP/srv _test_n=0
                lab_judged "$@" > "$TMP/judged.tap"
                echo "judged: $LAB_JUDGED"
                cat "$TMP/judged.tap"
                _test_skip_all=1 # this subshell's exit prints no plan
        )
}

test_expect "lab_tree_systemd reads the tree's libsystemd-shared" sh -c '[ "$1" = 262 ]' _ \
        "$(LAB_SRV=$TMP/srv lab_tree_systemd forky)"
test_expect "forky 262, newest modelled 257: trixie judged, forky skipped with the reason" sh -c '
        printf "%s\n" "$1"
        [ "$(printf "%s\n" "$1" | head -1)" = "judged: trixie" ] &&
        [ "$(printf "%s\n" "$1" | grep -c "^ok [0-9]* - .* # SKIP $2 forky has systemd 262, newer than the newest modelled version 257")" = 1 ] &&
        ! printf "%s\n" "$1" | grep -q "^not ok"' _ "$(judged 257 trixie forky)" "$LAB_SKIP_BEYOND"
test_expect "once 262 is modelled, forky is judged and nothing is skipped" sh -c '
        printf "%s\n" "$1"; [ "$1" = "judged: trixie forky" ]' _ "$(judged 262 trixie forky)"
test_expect "a suite that is not moving, beyond the model, fails instead of skipping" sh -c '
        printf "%s\n" "$1"
        printf "%s\n" "$1" | grep -q "^not ok [0-9]* - trixie: systemd 257 is modelled (newest: 256)" &&
        ! printf "%s\n" "$1" | grep -q "# SKIP" && [ "$(printf "%s\n" "$1" | head -1)" = "judged: " ]' _ \
        "$(judged 256 trixie)"
test_expect "a suite without a tree is left to lab_require" sh -c '
        printf "%s\n" "$1"; [ "$1" = "judged: trixie nosuch" ]' _ "$(judged 257 trixie nosuch)"
test_expect "without a newest modelled version, lab_judged fails" sh -c '
        printf "%s\n" "$1"; printf "%s\n" "$1" | grep -q "^not ok .*newest modelled version is known"' _ \
        "$(judged "" trixie)"
