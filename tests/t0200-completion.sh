#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The bash completion (shell-completion/bash/bootrace) and its helper `bootrace __complete`: the script is
# sourced in a fresh bash, COMP_WORDS/COMP_CWORD are set as bash sets them (it splits "--opt=value" at
# the "="), _bootrace is called and COMPREPLY checked. Expected values come from --help, the rules files and a
# temporary root, not from lists in this file.
. "$(dirname "$0")/lib.sh"

COMPLETION=$top_srcdir/shell-completion/bash/bootrace
command -v bash > /dev/null || skip_all "bash not installed"

# comp WORD...: completes the last WORD of "bootrace WORD..." and prints COMPREPLY, one per line. Anything the
# completion prints on stderr is an error (it would garble the user's command line).
comp() {
        bash -c '. "$1" || exit 1; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _bootrace
                 ((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"' \
                comp "$COMPLETION" "$BOOTRACE" "$@" 2> "$TMP/comp.err" || return 1
        if [ -s "$TMP/comp.err" ]; then
                echo "stderr:" >&2
                cat "$TMP/comp.err" >&2
                return 1
        fi
}
# comp_is EXPECTED_FILE WORD...: the completions, sorted, equal the sorted lines of EXPECTED_FILE
comp_is() {
        local want=$1
        shift
        comp "$@" > "$TMP/got" || return 1
        sort "$want" > "$TMP/want.sorted"
        sort "$TMP/got" > "$TMP/got.sorted"
        test_cmp "$TMP/want.sorted" "$TMP/got.sorted"
}
lines() { printf '%s\n' "$@"; }

verbs=$("$BOOTRACE" --help | awk '/^Verbs:/{v=1; next} v && /^  [a-z]/{print $1} v && /^$/{exit}')
lines $verbs > "$TMP/verbs"
sed -n 's/.*<target name="\([^"]*\)".*/\1/p' "$BOOTRACE_RULES_DIR/targets.xml" > "$TMP/targets"
sed -n 's/.*<target [^>]*systemd="\([0-9]*\)".*/\1/p' "$BOOTRACE_RULES_DIR/targets.xml" |
        sort -nu > "$TMP/versions"
sed -n 's/.*<check id="\([^"]*\)".*/\1/p' "$BOOTRACE_RULES_DIR/checks.xml" > "$TMP/checks"

# ---- the helper (run through WRAPPER, so valgrind and the sanitizers see it)
helper_lists() { # helper_lists WHAT EXPECTED
        bootrace __complete "$1" > "$TMP/out" && test -s "$TMP/out" && test_cmp "$2" "$TMP/out"
}
helper_options() {
        bootrace __complete options "$1" > "$TMP/opts" || return 1
        # a verb that does not parse with cli_parse() would print its help (or run) instead of the list
        if grep -Ev "^(--[a-zA-Z0-9][a-zA-Z0-9-]*|-[a-zA-Z0-9])=?$" "$TMP/opts"; then
                echo "^ not an option"
                return 1
        fi
        for o in --root= --target= --systemd= --format= --fail-on= --no-color --nearest-model --quiet --help; do
                grep -qx -- "$o" "$TMP/opts" || { echo "missing $o"; return 1; }
        done
}
broken_rules() {
        mkdir "$TMP/badrules" && cp -R "$BOOTRACE_RULES_DIR/." "$TMP/badrules/" || return 1
        echo "<targets>" > "$TMP/badrules/targets.xml"
        BOOTRACE_RULES_DIR=$TMP/badrules expect_exit 2 bootrace __complete targets > "$TMP/out" 2> /dev/null ||
                return 1
        ! test -s "$TMP/out"
}
test_expect "__complete is not in --help" eval '! "$BOOTRACE" --help | grep -q complete'
test_expect "__complete verbs lists the verbs of --help" helper_lists verbs "$TMP/verbs"
test_expect "__complete targets: the targets of targets.xml" helper_lists targets "$TMP/targets"
test_expect "__complete versions: their systemd versions" helper_lists versions "$TMP/versions"
test_expect "__complete checks: the checks of checks.xml" helper_lists checks "$TMP/checks"
test_expect "an unknown request is a usage error" \
        expect_error 2 "^bootrace: __complete: unknown request 'frobnicate'" bootrace __complete frobnicate
test_expect "__complete arguments needs a verb" \
        expect_error 2 "\\(needs a verb\\)" bootrace __complete arguments
test_expect "the options of an unknown verb: an error" expect_exit 2 bootrace __complete options nosuchverb
for v in $verbs; do
        test_expect "$v: the option list is well-formed, with the global options" helper_options "$v"
done
test_expect "broken rules: no targets, exit 2, no crash" broken_rules

# ---- verbs and options
verb_options() {
        comp "$1" -- > "$TMP/got" || return 1
        # every option that the verb's --help and bootrace --help mention ...
        { "$BOOTRACE" "$1" --help; "$BOOTRACE" --help; } | grep -o -- "--[a-zA-Z][a-zA-Z0-9-]*" |
                grep -vx -- --version | sort -u > "$TMP/documented"
        sed "s/=$//" "$TMP/got" | sort -u > "$TMP/offered"
        comm -23 "$TMP/documented" "$TMP/offered" > "$TMP/missing"
        if [ -s "$TMP/missing" ]; then
                echo "documented, not completed:"
                cat "$TMP/missing"
                return 1
        fi
        # ... and none that it does not accept
        while read -r o; do
                case $o in *=) o="${o}x" ;; esac
                "$BOOTRACE" "$1" "$o" --help > /dev/null 2> "$TMP/err"
                if grep -q "unknown option" "$TMP/err"; then
                        cat "$TMP/err"
                        return 1
                fi
        done < "$TMP/got"
}
prefix_verbs() { grep "^s" "$TMP/verbs" > "$TMP/want" && comp_is "$TMP/want" s; }
test_expect "an empty word completes to the verbs" comp_is "$TMP/verbs" ""
test_expect "a prefix completes to the verbs starting with it" prefix_verbs
test_expect "a global option's value before the verb is not the verb" comp_is "$TMP/verbs" --root "$TMP" ""
lines --root= --target= --systemd= --format= --fail-on= --no-color --nearest-model --instance= --quiet --help --version > "$TMP/global"
test_expect "- before the verb completes to the global options" comp_is "$TMP/global" -
for v in $verbs; do
        test_expect "$v --: every option of --help, only accepted ones" verb_options "$v"
done
lines --target= > "$TMP/target-opt"
test_expect "a unique option prefix completes to the whole option" comp_is "$TMP/target-opt" show --targ
: > "$TMP/nothing"
test_expect "after -- nothing is an option" comp_is "$TMP/nothing" explain -- --

# ---- option values, in the three ways bash hands them over
accepted() { # accepted VERB --OPTION: the verb accepts every completion of --OPTION=, but not "bogus"
        local verb=$1 opt=$2
        comp "$verb" "$opt" = "" > "$TMP/got" && test -s "$TMP/got" || return 1
        while read -r f; do "$BOOTRACE" "$verb" "$opt=$f" --help > /dev/null || return 1; done < "$TMP/got"
        expect_exit 2 "$BOOTRACE" "$verb" "$opt=bogus" --help 2> /dev/null
}
grep "^debian-b" "$TMP/targets" > "$TMP/debian-b"
sed "s/^/--target=/" "$TMP/debian-b" > "$TMP/debian-b-joined"
mkdir "$TMP/rootdir" && touch "$TMP/rootfile" "$TMP/journal.file"
lines "$TMP/rootdir" > "$TMP/rootdir.list"
lines "$TMP/journal.file" > "$TMP/journal.list"
test_expect "--target= completes to every target" comp_is "$TMP/targets" show --target = ""
test_expect "--target=debian-b (split at =)" comp_is "$TMP/debian-b" show --target = debian-b
test_expect "--target debian-b (separate word)" comp_is "$TMP/debian-b" --target debian-b
test_expect "--target=debian-b (= not a word break)" comp_is "$TMP/debian-b-joined" show --target=debian-b
test_expect "--systemd= completes to the targets' versions" comp_is "$TMP/versions" show --systemd = ""
lines minimal server desktop > "$TMP/bookworm-profiles"
lines minimal > "$TMP/xenial-profiles"
test_expect "--profile= completes to the profiles of --target" \
        comp_is "$TMP/bookworm-profiles" lint --target=debian-bookworm --profile = ""
test_expect "--profile= of a target without profiles: minimal" \
        comp_is "$TMP/xenial-profiles" lint --target ubuntu-xenial --profile = ""
test_expect "every completed --format is accepted" accepted show --format
test_expect "every completed --fail-on level is accepted" accepted stats --fail-on
test_expect "every completed graph --type is accepted" accepted graph --type
lines After,Before > "$TMP/type-list"
lines --type=After,Before > "$TMP/type-list-joined"
test_expect "--type=After,Be completes the list's last word (split at =)" comp_is "$TMP/type-list" graph --type = After,Be
test_expect "--type=After,Be completes the list's last word (= not a word break)" \
        comp_is "$TMP/type-list-joined" graph --type=After,Be
test_expect "--root= completes to directories only" comp_is "$TMP/rootdir.list" show --root = "$TMP/root"
test_expect "a file argument completes to files" comp_is "$TMP/journal.list" stats --file = "$TMP/journal.f"

# ---- check ids, read from the rules directory at completion time
check_verb() {
        local verb=
        for v in $verbs; do [ "$("$BOOTRACE" __complete arguments "$v")" = check ] && verb=$v; done
        [ -n "$verb" ] || { echo "no verb takes a CHECK argument"; return 1; }
        comp_is "$TMP/checks" "$verb" ""
}
added_check() {
        mkdir "$TMP/rules" && cp -R "$BOOTRACE_RULES_DIR/." "$TMP/rules/" || return 1
        # a new <check> before the first one (renaming one would leave rules that name it, exec-writes.xml's check=)
        sed -i '0,/<check id="[^"]*" severity="[a-z]*">/s//<check id="zz-added-check" severity="info"><title>added<\/title><explanation>added<\/explanation><\/check>\n&/' \
                "$TMP/rules/checks.xml"
        lines zz-added-check > "$TMP/want"
        BOOTRACE_RULES_DIR=$TMP/rules comp_is "$TMP/want" explain zz-
}
test_expect "a verb taking CHECK completes to the check ids" check_verb
test_expect "a check added to the rules is offered" added_check

# ---- unit names under --root: the unit search path of the version, nothing else
R=$TMP/root
mkdir -p "$R/etc/systemd/system/foo.service.d" "$R/etc/systemd/system/multi-user.target.wants" \
        "$R/usr/lib/systemd/system" "$R/lib/systemd/system" "$R/run/systemd/system" "$R/opt/units" \
        "$TMP/empty"
touch "$R/etc/systemd/system/foo.service" "$R/etc/systemd/system/foo.service.d/override.conf" \
        "$R/usr/lib/systemd/system/foo.service" "$R/usr/lib/systemd/system/bar.service" \
        "$R/usr/lib/systemd/system/dev-disk-by\\x2dlabel-swap.swap" "$R/usr/lib/systemd/system/README" \
        "$R/run/systemd/system/qux.socket" "$R/lib/systemd/system/old@.service" \
        "$R/opt/units/elsewhere.service"
ln -s /usr/lib/systemd/system/bar.service "$R/etc/systemd/system/multi-user.target.wants/bar.service"
lines bar.service "dev-disk-by\\x2dlabel-swap.swap" foo.service qux.socket > "$TMP/units257"
{ cat "$TMP/units257"; echo old@.service; } | LC_ALL=C sort > "$TMP/units252"
grep "^d" "$TMP/units252" > "$TMP/units-d"
units_and_files() {
        (cd "$TMP/empty" && touch local.service && comp show --root="$R" --systemd=257 "") > "$TMP/got" ||
                return 1
        { cat "$TMP/units257"; echo local.service; } | sort > "$TMP/want"
        sort "$TMP/got" | test_cmp "$TMP/want" -
}
helper_units() {
        bootrace __complete units --root="$R" --systemd=252 > "$TMP/got" &&
                test_cmp "$TMP/units252" "$TMP/got"
}
test_expect "--unit= lists the root's units once each (257: no /lib)" \
        comp_is "$TMP/units257" stats --root = "$R" --systemd = 257 --unit = ""
test_expect "-u with --root DIR and --systemd=252 before the verb (/lib searched)" \
        comp_is "$TMP/units252" --root "$R" --systemd=252 stats -u ""
test_expect "--target picks the version of the search path" \
        comp_is "$TMP/units252" --target=debian-bookworm chain --root="$R" ""
test_expect "a UNIT argument completes to units with a prefix" \
        comp_is "$TMP/units-d" chain --root="$R" --systemd=252 d
test_expect "UNIT|PATH: units and files" units_and_files
test_expect "a missing root: no units, no noise" \
        comp_is "$TMP/nothing" stats --root="$TMP/nonexistent" --unit = ""
test_expect "__complete units honours --root and --systemd" helper_units
lines foo.service > "$TMP/units-f"
from_to_units() {
        comp_is "$TMP/units-f" graph --root="$R" --systemd=257 --from = f &&
                comp_is "$TMP/units-f" graph --root="$R" --systemd=257 --to f
}
test_expect "graph --from= and --to= complete to the root's units" from_to_units
