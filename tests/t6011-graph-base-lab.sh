#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The base models generated from upstream's units/ (247, 252, 257, 262: rules/base-NNN.xml) against the lab trees of
# those releases (bullseye, bookworm, trixie, forky), unit by unit:
# units, links and aliases differ exactly as fixtures/base/SUITE.explained says (each line with its reason), every
# other unit is equal, and so are the dependencies without a tree and with it, but for the explained ones; with
# --target=debian-SUITE (the release's enablement, <target> in the model) the differences Debian's enablement
# explains are gone too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

base_units() {
        grep -o '<unit name="[^"]*"' "$BOOTRACE_RULES_DIR/base-$1.xml" | sed 's/<unit name="//; s/"$//'
}

# unit by unit: "only-base U", "only-tree U", "differs U", "link-only-base TYPE U NAME", ..., "alias-only-tree A U"
# for every difference, after a "# equal N" line. Unit texts are compared as the generator stores them: without
# comments, blank lines and Documentation=.
compare_units() {
        python3 - "$BOOTRACE_RULES_DIR/base-$1.xml" "$LAB_SRV/$2" <<'PY'
import html, os, re, sys
# systemd's own install: the releases' enablement (<target>) is not part of it
x = re.sub(r"<target .*?</target>\n", "", open(sys.argv[1], encoding="utf-8").read(), flags=re.S)
tree = sys.argv[2]
units = {m.group(1): html.unescape(m.group(2)) for m in re.finditer(r'<unit name="([^"]*)"[^>]*>\n(.*?)</unit>', x, re.S)}
links = set(re.findall(r'<link type="(\w+)" unit="([^"]*)" name="([^"]*)"/>', x))
aliases = set(re.findall(r'<alias name="([^"]*)" unit="([^"]*)"/>', x))
def strip(text):
    out, cont = [], False
    for l in text.split("\n"):
        s = l.strip()
        if not cont and (not s or s[0] in "#;" or s.startswith("Documentation=")):
            continue
        cont = bool(re.search(r"(?<!\\)(\\\\)*\\$", l))
        out.append(l.rstrip() if not cont else l)
    return "\n".join(out) + "\n"
vd = os.path.join(tree, "usr/lib/systemd/system" if os.path.islink(os.path.join(tree, "lib")) else "lib/systemd/system")
files, tal, tlinks = {}, set(), set()
for n in os.listdir(vd):
    p = os.path.join(vd, n)
    if os.path.islink(p):
        if os.readlink(p) != "/dev/null":
            tal.add((n, os.path.basename(os.readlink(p))))
    elif os.path.isfile(p):
        files[n] = strip(open(p, encoding="utf-8", errors="replace").read())
    elif os.path.isdir(p) and re.search(r"\.(wants|requires|upholds)$", n):
        kind = {"wants": "Wants", "requires": "Requires", "upholds": "Upholds"}[n.rsplit(".", 1)[1]]
        for e in os.listdir(p):
            tlinks.add((kind, n.rsplit(".", 1)[0], e))
both = set(units) & set(files)
out = ["only-base %s" % u for u in set(units) - set(files)]
out += ["only-tree %s" % u for u in set(files) - set(units)]
out += ["differs %s" % u for u in both if units[u] != files[u]]
out += ["link-only-base %s %s %s" % l for l in links - tlinks]
out += ["link-only-tree %s %s %s" % l for l in tlinks - links]
out += ["alias-only-base %s %s" % a for a in aliases - tal]
out += ["alias-only-tree %s %s" % a for a in tal - aliases]
print("# equal %d" % (len(both) - sum(1 for u in both if units[u] != files[u])))
for l in sorted(out):
    print(l)
PY
}

explained() { grep -v '^#' "$FIXTURES/base/$1.explained" | cut -f1 | LC_ALL=C sort; }

check_generated_units() {
        local suite=$1 ver=$2 f=$FIXTURES/base/$1.explained
        if grep -v '^#' "$f" | grep -qv '	..*'; then echo "an explained line without its reason"; return 1; fi
        compare_units "$ver" "$suite" > "$TMP/cmp-$ver" || return 1
        echo "# base-$ver.xml against $suite: $(sed -n 's/^# equal //p' "$TMP/cmp-$ver") units equal," \
                "$(grep -vc '^#' "$TMP/cmp-$ver") explained differences"
        [ "$(sed -n 's/^# equal //p' "$TMP/cmp-$ver")" -gt 120 ] || { echo "too few units equal"; return 1; }
        grep -v '^#' "$TMP/cmp-$ver" | LC_ALL=C sort > "$TMP/got"
        explained "$suite" | grep -v '^edge-' > "$TMP/want"
        diff -u "$TMP/want" "$TMP/got"
}

# the release's <target> in the model omits exactly the units the explained differences say Debian's build keeps
# out of the unit path, and aliases what Debian aliases
check_target_units() {
        local suite=$1 ver=$2
        sed -n "/^<target name=\"debian-$suite\"/,/^<\/target>/p" "$BOOTRACE_RULES_DIR/base-$ver.xml" > "$TMP/target"
        [ -s "$TMP/target" ] || { echo "base-$ver.xml has no <target name=\"debian-$suite\">"; return 1; }
        sed -n 's/^<omit unit="\([^"]*\)"\/>$/\1/p' "$TMP/target" | LC_ALL=C sort > "$TMP/omit-got"
        grep -v '^#' "$FIXTURES/base/$suite.explained" | grep -E '^only-base [^	]*	.*(out of the unit path|build profile)' |
                cut -f1 | cut -d' ' -f2 | LC_ALL=C sort > "$TMP/omit-want"
        diff -u "$TMP/omit-want" "$TMP/omit-got" || return 1
        sed -n 's/^<alias name="\([^"]*\)" unit="\([^"]*\)"\/>$/\1 \2/p' "$TMP/target" | LC_ALL=C sort > "$TMP/al-got"
        grep -v '^#' "$FIXTURES/base/$suite.explained" | sed -n 's/^alias-only-tree \([^	]*\)	Debian.s debian\/systemd.links.*/\1/p' |
                LC_ALL=C sort > "$TMP/al-want"
        diff -u "$TMP/al-want" "$TMP/al-got"
}

# the dependencies of the units the model and the tree share, without a tree and with it: equal but for the
# explained "edge-only-base/-tree UNIT TYPE OTHER ORIGIN" lines (the tree's /etc: what Debian enables, what the lab
# masks)
check_generated_edges() {
        local suite=$1 ver=$2 target=${3:-}
        compare_units "$ver" "$suite" | awk '$1 == "only-base" { print $2 }' > "$TMP/not-in-tree"
        base_units "$ver" | grep -v '@\.' | grep -vxFf "$TMP/not-in-tree" > "$TMP/units"
        # shellcheck disable=SC2046
        bootrace graph --offline ${target:+--target="$target"} --systemd="$ver" $(cat "$TMP/units") > "$TMP/base.out" \
                2> "$TMP/base.err" || { cat "$TMP/base.err"; return 1; }
        # shellcheck disable=SC2046
        bootrace graph --offline --systemd="$ver" --root="$LAB_SRV/$suite" $(cat "$TMP/units") > "$TMP/tree.out" \
                2> /dev/null || return 1
        for f in base tree; do
                awk -F'\t' 'FNR == NR { u[$1] = 1; next } ($1 in u) && ($3 in u || $2 ~ /MountsFor$/) {
                        print $1 "\t" $2 "\t" $3 "\t" $4 }' "$TMP/units" "$TMP/$f.out" | sort -u > "$TMP/$f.tsv"
        done
        [ "$(wc -l < "$TMP/base.tsv")" -gt 500 ] || { echo "too few edges"; return 1; }
        LC_ALL=C comm -13 "$TMP/tree.tsv" "$TMP/base.tsv" | sed 's/^/edge-only-base /; s/\t/ /g' > "$TMP/e-got"
        LC_ALL=C comm -23 "$TMP/tree.tsv" "$TMP/base.tsv" | sed 's/^/edge-only-tree /; s/\t/ /g' >> "$TMP/e-got"
        LC_ALL=C sort -o "$TMP/e-got" "$TMP/e-got"
        # with the release's enablement (--target, <target> in the base model) what Debian enables is there too
        if [ -n "$target" ]; then
                grep -v '^#' "$FIXTURES/base/$suite.explained" | grep '^edge-' | grep -v '	Debian enables ' |
                        cut -f1 | LC_ALL=C sort > "$TMP/e-want"
                [ "$(explained "$suite" | grep -c '^edge-')" -gt "$(wc -l < "$TMP/e-want")" ] ||
                        { echo "no explained difference is Debian's enablement"; return 1; }
        else
                explained "$suite" | grep '^edge-' > "$TMP/e-want"
        fi
        echo "# $(wc -l < "$TMP/base.tsv") dependencies among $(wc -l < "$TMP/units") units," \
                "$(wc -l < "$TMP/e-got") explained differences"
        diff -u "$TMP/e-want" "$TMP/e-got"
}

for suite in $LAB_JUDGED; do
        ver=$(oracle_version "$suite")
        test_expect "base-$ver.xml (from upstream): unit by unit as $suite has them, but for the explained" \
                check_generated_units "$suite" "$ver"
        test_expect "base-$ver.xml (from upstream): dependencies without a tree as from $suite, but for the explained" \
                check_generated_edges "$suite" "$ver"
        test_expect "base-$ver.xml's <target name=\"debian-$suite\">: omits and aliases as the explained say" \
                check_target_units "$suite" "$ver"
        test_expect "base-$ver.xml with --target=debian-$suite: what Debian enables is there too" \
                check_generated_edges "$suite" "$ver" "debian-$suite"
done
