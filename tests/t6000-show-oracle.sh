#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `bootrace show` against real systemd: every golden show fixture is laid over the lab trees of bullseye (247),
# bookworm (252), trixie (257) and forky (262) with overlayfs, and what `systemd-analyze verify` dumps for each unit must
# equal what bootrace reads from the same files: load state, main name and aliases, fragment, drop-ins in their
# order, Description, User, Environment, and the dependencies written in the files (which must all be in the dump
# as origin-file; the dump also holds implicit ones that the model adds, tested elsewhere).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
command -v jq > /dev/null || { [ "${CI:-}" = true ] && { echo "Bail out! jq missing in CI"; exit 1; }; skip_all "jq not installed"; }
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

# facts from bootrace show --format=json (stdin) for the unit asked for as $1
bootrace_facts() {
        jq -r --arg req "$1" --arg root "$2" '
                def strip: if . == null then null else ltrimstr($root) end;
                .units[] | select(.requested == $req) |
                "load \(.load_state)",
                (if .load_state == "loaded" then
                        "id \(.id)",
                        (.names[1:][] | "alias \(.)"),
                        (if .fragment then "fragment \(.fragment | strip)" else empty end),
                        ([.sources[] | select(.dropin)] | to_entries[] | "dropin \(.key + 1) \(.value.path | strip)"),
                        .id as $id |
                        (.settings | map(select(.status == "effective")) |
                                # Description= defaults to the unit name
                                ((map(select(.section == "Unit" and .key == "Description")) | last |
                                        if . == null then "Description \($id)"
                                        else "Description \(.expanded // .value)" end),
                                (map(select(.key == "User")) | last // empty | "User \(.expanded // .value)"),
                                # a variable assigned again replaces the earlier value
                                ([.[] | select(.key == "Environment") | .words[]?] |
                                        reduce .[] as $w ({}; . + {($w | split("=")[0]): $w}) | .[] | "env \(.)"))),
                        (.settings[] | select(.status == "effective" and .section == "Unit" and
                                (.key | test("^(After|Before|Wants|Requires|Requisite|BindsTo|PartOf|Conflicts|Upholds)$")))
                                | .key as $k | .words[]? | "dep \($k) \(.)"),
                        (.links[] | select(.masked | not) | "dep \(.kind) \(.name)")
                else empty end)'
}

oracle_case() {
        local suite=$1 case=$2 dir=$FIXTURES/show/$2 w ver units u rc
        w=$TMP/$suite-$case
        fixture_root "$dir" "$w/fixture"
        oracle_overlay "$suite" "$w/fixture" "$w"
        ver=$(oracle_version "$suite")
        units=$(tr ' ' '\n' < "$dir/args" | grep -v -e '^--' -e '@\.' -e '^$')
        # real systemd, one unit at a time (a unit that fails to load makes verify stop)
        for u in $units; do
                rc=0
                oracle_in_ns "$w" oracle_chroot_verify "$w/m" "$u" > "$w/sd-$u.dump" 2> "$w/sd-$u.err" || rc=$?
                if grep -q "^	-> Unit " "$w/sd-$u.dump"; then
                        oracle_dump_facts < "$w/sd-$u.dump" > "$w/sd-$u.facts"
                elif grep -q "Unit $u is masked" "$w/sd-$u.err"; then
                        echo "load masked" > "$w/sd-$u.facts"
                elif grep -q "Unit $u has a bad unit file setting" "$w/sd-$u.err"; then
                        echo "load bad-setting" > "$w/sd-$u.facts"
                elif grep -q -E "$u: Failed to load configuration: No such file" "$w/sd-$u.err"; then
                        echo "load not-found" > "$w/sd-$u.facts"   # unit_load(): -ENOENT leaves it not-found
                elif grep -q -E "$u: Failed to load configuration|Unit $u failed to load properly" "$w/sd-$u.err"; then
                        echo "load error" > "$w/sd-$u.facts"
                elif grep -q -E "Unit $u not found|Failed to prepare filename|No such file" "$w/sd-$u.err"; then
                        echo "load not-found" > "$w/sd-$u.facts"
                else
                        echo "verify of $u: exit $rc and no dump"; tail -5 "$w/sd-$u.err"; return 1
                fi
        done
        # bootrace on the very same view of the files
        # shellcheck disable=SC2086
        oracle_in_ns "$w" "$BOOTRACE" show --format=json --root="$w/m" --systemd="$ver" $units \
                > "$w/br.json" 2> "$w/br.err" || true
        for u in $units; do
                bootrace_facts "$u" "$w/m" < "$w/br.json" > "$w/br-$u.facts" || { cat "$w/br.err"; return 1; }
                # load state, names, files, Description, User, Environment: equal (sorted: aliases are a set)
                grep -v '^dep ' "$w/sd-$u.facts" | sort > "$w/sd-$u.main"
                grep -v '^dep ' "$w/br-$u.facts" | sort > "$w/br-$u.main"
                diff -u "$w/sd-$u.main" "$w/br-$u.main" > "$w/diff" ||
                        { echo "$u on $suite ($ver): systemd (-) vs bootrace (+)"; cat "$w/diff"; return 1; }
                # every dependency bootrace read from the files is one systemd has as origin-file
                grep '^dep ' "$w/br-$u.facts" | sort -u > "$w/br-$u.deps"
                grep '^dep ' "$w/sd-$u.facts" | sort -u > "$w/sd-$u.deps"
                if [ -n "$(comm -23 "$w/br-$u.deps" "$w/sd-$u.deps")" ]; then
                        echo "$u on $suite ($ver): dependencies bootrace read that systemd does not have:"
                        comm -23 "$w/br-$u.deps" "$w/sd-$u.deps"; return 1
                fi
        done
}

# fixtures/show/CASE/oracle names the lab suites whose systemd the case is meant for (cases about older versions
# have none); the case runs there with --systemd set to that tree's version
for suite in $LAB_JUDGED; do
        for dir in "$FIXTURES"/show/*/; do
                dir=${dir%/}
                case=$(basename "$dir")
                grep -q -w "$suite" "$dir/oracle" 2> /dev/null || continue
                test_expect "$suite ($(oracle_version "$suite")): $case agrees with systemd-analyze verify" \
                        oracle_case "$suite" "$case"
        done
done
