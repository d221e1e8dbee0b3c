#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# stats output formats and verdicts on a real journal: the JSON contract (fields and their arithmetic), the
# markdown SRU block, JUnit XML (one testcase per unit per boot), before/after comparison and --below, and the
# exit status that goes with each verdict.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/stats-lib.sh"
stats_require

SET=bookworm-ro
TSV=$SHARED/data/racy-$SET.tsv
J=$TMP/$SET.journal
mapfile -t UNITS < <(truth_units "$TSV")
HAVE_PY=$(command -v python3 || true)

json_contract() {
        bootrace stats --file "$J" "${UNITS[@]}" --format=json > "$TMP/j.json"
        [ $? -le 1 ] || return 1
        python3 - "$TMP/j.json" "$("$BOOTRACE" --version | cut -d' ' -f2)" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["tool"] == "bootrace" and j["version"] == sys.argv[2], "tool/version"
s = j["sample"]
assert s["boots_in_journal"] == len(s["boots"]) > 0, "boots"
for u in s["units"]:
    for k in ("unit", "boots", "succeeded", "failed", "skipped", "not_run", "unknown", "results", "rate", "ci95"):
        assert k in u, (u["unit"], k)
    assert u["succeeded"] + u["failed"] + u["skipped"] + u["not_run"] == u["boots"], u["unit"]
    assert u["boots"] + u["unknown"] == s["boots_in_journal"], u["unit"]
    assert u["failures"] == u["failed"] + u["not_run"], u["unit"]
    assert sum(u["results"].values()) == u["boots"] - u["succeeded"], u["unit"]
    if u["boots"]:
        assert abs(u["rate"] - u["failures"] / u["boots"]) < 1e-5, u["unit"]
        assert u["ci95"][0] <= u["rate"] <= u["ci95"][1], u["unit"]
    else:
        assert u["rate"] is None
    assert len(u["per_boot"]) == s["boots_in_journal"]
    assert sum(1 for b in u["per_boot"] if b["outcome"] == "failed") == u["failed"], u["unit"]
    for b in u["per_boot"]:
        if b["outcome"] == "failed":
            assert b["race"]["summary"], u["unit"]
print("ok", len(s["units"]), "units")
PY
}

json_baseline() {
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --below=10% --format=json \
                > "$TMP/b.json"
        local rc=$?
        python3 - "$TMP/b.json" "$rc" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
assert "baseline" in j and "comparisons" in j
assert j["comparisons"], "no comparison"
for c in j["comparisons"]:
    assert 0 <= c["p_value"] <= 1 and 0 <= c["p_value_holm"] <= 1 and c["p_value_holm"] >= c["p_value"] - 1e-12
    assert c["boots_needed"] is None or c["boots_needed"] >= 0
    assert c["verdict"] in ("improved", "not-improved", "worse", "no-data")
    assert c["under_powered"] == (c["boots_needed"] != 0), c
for u in j["sample"]["units"]:
    if u["boots"]:
        assert u["shown_below"] == (u["upper95_one_sided"] < 0.10), u["unit"]
        assert (u["boots_needed"] == 0) == u["shown_below"], u["unit"]
want = 0 if j["verdict"]["result"] == "pass" else 1
assert rc == want, ("exit status", rc, "verdict", j["verdict"])
print("ok", len(j["comparisons"]), "comparisons, exit", rc)
PY
}

markdown_block() {
        bootrace stats --baseline-file "$J" --file "$TMP/bookworm-rw.journal" "${UNITS[@]}" --format=markdown \
                --title="LP: #0 (test)" --label="pkg 1.1" --baseline-label="pkg 1.0" > "$TMP/m.md"
        [ $? -le 1 ] || return 1
        grep -q '^### bootrace verification — LP: #0 (test)' "$TMP/m.md" &&
                grep -q 'before pkg 1.0' "$TMP/m.md" && grep -q 'after  pkg 1.1' "$TMP/m.md" &&
                grep -q '^| unit | before | after | before 95% CI (CP) | after 95% CI (CP) | Fisher p |' "$TMP/m.md" &&
                grep -q '^Verdict: ' "$TMP/m.md" && grep -q '^Criterion per boot: ' "$TMP/m.md" &&
                grep -q '^Ordering cycles seen (after): ' "$TMP/m.md"
}

junit_xml() {
        local units boots fails
        bootrace stats --file "$J" "${UNITS[@]}" --format=junit > "$TMP/j.xml"
        [ $? -le 1 ] || return 1
        bootrace stats --file "$J" "${UNITS[@]}" --outcomes > "$TMP/o"
        units=${#UNITS[@]}
        boots=$(grep -v '^#' "$TMP/o" | cut -f3 | sort -u | wc -l)
        fails=$(awk -F'\t' '!/^#/ && ($5 == "failed" || $5 == "not-run")' "$TMP/o" | wc -l)
        if command -v xmllint > /dev/null; then
                xmllint --noout "$TMP/j.xml" || return 1
        fi
        [ "$(grep -c '<testcase ' "$TMP/j.xml")" = $((units * boots)) ] &&
                [ "$(grep -c '<failure ' "$TMP/j.xml")" = "$fails" ] &&
                grep -q "<testsuites name=\"bootrace stats\" tests=\"$((units * boots))\" failures=\"$fails\"" "$TMP/j.xml"
}

below_verdict() {
        # racy units that never failed: shown below 50% iff the one-sided bound 1 - 0.05^(1/n) < 0.5, i.e. n >= 5
        bootrace stats --file "$J" "${UNITS[@]}" --outcomes > "$TMP/o2"
        local unit n want
        unit=$(awk -F'\t' '!/^#/ { k[$4] += ($5 != "unknown"); f[$4] += ($5 == "failed") } END { for (u in k) if (!f[u] && k[u]) { print u; exit } }' "$TMP/o2")
        [ -n "$unit" ] || { echo "no clean unit"; return 1; }
        n=$(awk -F'\t' -v u="$unit" '!/^#/ && $4 == u && $5 != "unknown"' "$TMP/o2" | wc -l)
        want=$([ "$n" -ge 5 ] && echo 0 || echo 1)
        expect_exit "$want" bootrace stats --file "$J" --unit="$unit" --below=50% &&
                expect_exit 1 bootrace stats --file "$J" --unit="$unit" --below=0.001
}

test_expect "import $SET" import_export $SET
test_expect "import bookworm-rw (the after-sample)" import_export bookworm-rw
if [ -n "$HAVE_PY" ]; then
        test_expect "JSON: contract fields and their arithmetic" json_contract
        test_expect "JSON with a baseline: comparisons, --below, exit status = verdict" json_baseline
else
        test_skip "JSON: contract fields and their arithmetic" "python3 not installed"
        test_skip "JSON with a baseline: comparisons, --below, exit status = verdict" "python3 not installed"
fi
test_expect "markdown: SRU verification block" markdown_block
test_expect "JUnit: one testcase per unit and boot, failures counted" junit_xml
test_expect "the same journals before and after: not improved, exit 1" \
        expect_exit 1 bootrace stats --baseline-file "$J" --file "$J" "${UNITS[@]}"
test_expect "--below: exit status follows the bound" below_verdict
test_expect "--below=0 is a usage error" expect_exit 2 bootrace stats --file "$J" --below=0
test_expect "--below=abc is a usage error" expect_exit 2 bootrace stats --file "$J" --below=abc
test_expect "--format=sarif is not a stats format" expect_exit 2 bootrace stats --file "$J" --format=sarif
test_expect "-D twice is a usage error" expect_exit 2 bootrace stats -D "$TMP" -D "$TMP"
test_expect "-D and --file together are a usage error" expect_exit 2 bootrace stats -D "$TMP" --file "$J"
test_expect "a positional argument is a usage error" expect_exit 2 bootrace stats --file "$J" foo.service
test_expect "--since in the future selects no boot: no evidence, exit 1" \
        expect_exit 1 bootrace stats --file "$J" --unit=racy-varlib.service --since=2999-01-01
test_expect "--since=@0 selects every boot" sh -c "
        '$BOOTRACE' stats --file '$J' --unit=racy-varlib.service --since=@0 | grep -q ' boots in the journal, '"
