# SPDX-License-Identifier: LGPL-2.1-or-later
# verify-corpus-lib.sh - bootrace against systemd-analyze verify over systemd's own unit files (t6021
# family). Sourced after lib.sh and oracle-lib.sh.
#
# corpus_stage SUITE DIR
#     puts systemd's unit files of the suite's version ($LAB_SRV/corpus/SUITE, made by tests/systemd-corpus.sh:
#     units/, test/ and test/fuzz/fuzz-unit-file/) into batches DIR/bNN/, one name at most once per batch, and
#     writes DIR/files: "BATCH NAME ORIGIN" per file. Files from units/ and test/ keep their names (*.in files
#     need a build and are left out); a fuzz corpus file "F" whose first line names a unit type T becomes
#     "fuzz-F.T" without that line (as systemd's fuzz-unit-file reads it), other fuzz files "fuzz-F.service".
# corpus_verify SUITE DIR      systemd's verdicts, warned lines and edges: DIR/sd.{verdicts,warned,edges}, from
#     the cache under the corpus when the tree, the corpus and these scripts are those it was made with
# corpus_bootrace SUITE DIR    the same from bootrace show and graph: DIR/br.{verdicts,warned,edges}
#     verdicts: "NAME STATE" (loaded, bad-setting, error, not-found, masked); warned: "NAME:LINE" for each line
#     of each file the loader warns about; edges: as graph-oracle-lib.sh, for the corpus units only.
# corpus_compare SUITE DIR EXCEPTIONS
#     every difference, "KIND WHAT", minus those the exceptions file excuses: DIR/diff (and DIR/excused).
#
# The exceptions file: "VERSIONS KIND PATTERN REASON...", '#' comments. VERSIONS: "*" or a comma-separated list
# (247,252); KIND: verdict, warned, edge; PATTERN: a shell pattern over WHAT ("NAME" for verdicts, "NAME:LINE"
# for warned lines, "UNIT/TYPE/OTHER" for edges); the reason is required.

corpus_dir() { echo "${LAB_CORPUS:-$LAB_SRV/corpus}/$1"; }

# The instance verify loads a template file as: "i" up to 256, "test_instance" from 257 (its --instance=
# default, analyze.c@v257); bootrace show and graph do the same.
corpus_instance() { if [ "$(oracle_version "$1")" -ge 257 ]; then echo test_instance; else echo i; fi; }

corpus_stage() {
        # one python3 pass: a shell loop forked head, tr and cp per file (50 s for 568 files on a loaded machine)
        python3 - "$(corpus_dir "$1")" "$2" <<'PY'
import os, re, shutil, stat, sys
c, w = sys.argv[1], sys.argv[2]
types = ("service", "socket", "target", "device", "mount", "automount", "swap", "timer", "path", "slice", "scope")
unit = re.compile(r"[A-Za-z0-9:_.\\-]+(@[A-Za-z0-9:_.\\-]*)?\.(service|socket|target|mount|automount|swap|timer|path|slice|scope)")
own = []
for top in ("units", "test"):
    for d, dirs, names in os.walk(os.path.join(c, top)):
        if d == os.path.join(c, "test"):
            dirs[:] = [x for x in dirs if x != "fuzz"]
        for n in names:
            f = os.path.join(d, n)
            if unit.fullmatch(n) and stat.S_ISREG(os.lstat(f).st_mode):
                own.append(f)
entries = [(f[len(c) + 1:], os.path.basename(f), None) for f in sorted(own)]
fz = os.path.join(c, "test/fuzz/fuzz-unit-file")
for b in sorted(os.listdir(fz)) if os.path.isdir(fz) else []:
    f = os.path.join(fz, b)
    if not os.path.isfile(f):
        continue
    data = open(f, "rb").read()
    first = data.split(b"\n", 1)[0].replace(b"\0", b"").replace(b"\r", b"").decode("latin-1")
    t = first if first in types else "service"
    n = "fuzz-" + re.sub(r"[^A-Za-z0-9_.\n-]", "_", b)
    if not n.endswith("." + t):
        n += "." + t
    entries.append((f[len(c) + 1:], n, data.split(b"\n", 1)[1] if first in types and b"\n" in data
                    else b"" if first in types else None))
os.makedirs(w, exist_ok=True)
seen = {}
with open(os.path.join(w, "list"), "w") as lst, open(os.path.join(w, "files"), "w") as fil:
    for o, n, body in entries:
        lst.write(f"{o} {n}\n")
        seen[n] = seen.get(n, 0) + 1
        bd = os.path.join(w, "b%02d" % seen[n])
        fil.write(f"b{seen[n]:02d} {n} {o}\n")
        os.makedirs(bd, exist_ok=True)
        if body is None:
            shutil.copyfile(os.path.join(c, o), os.path.join(bd, n))
        else:
            open(os.path.join(bd, n), "wb").write(body)
PY
}

# The batches, one per line.
corpus_batches() { awk '{ print $1 }' "$1/files" | sort -u; }

# The key of verify's results for a suite: the corpus, the tree's packages (dpkg status: its systemd and the
# units the corpus units pull in) and the code that stages, runs and reads verify (not bootrace's side). Same
# key, same results.
corpus_verify_key() {
        local suite=$1
        { cat "$(corpus_dir "$suite")/VERSION" "$LAB_SRV/$suite/var/lib/dpkg/status" "$LAB/lab-oracle.sh" 2> /dev/null
          declare -f corpus_stage corpus_instance corpus_verify_run corpus_own_edges graph_oracle_dump2tsv; } | sha256sum | cut -c1-16
}

# verify's results are cached beside the corpus ($(corpus_dir SUITE)/verify-cache/KEY/sd.*): running the tree's
# verify over the corpus is the expensive half (a minute per tree on two cores), and its answer only changes with
# the key. A corpus fetched again (tests/systemd-corpus.sh) starts without a cache; an unwritable one is not used.
corpus_verify() {
        local suite=$1 w=$2 key cache
        key=$(corpus_verify_key "$suite")
        cache=$(corpus_dir "$suite")/verify-cache
        if [ -s "$cache/$key/sd.verdicts" ] && [ -f "$cache/$key/sd.warned" ] && [ -f "$cache/$key/sd.edges" ]; then
                cp "$cache/$key"/sd.verdicts "$cache/$key"/sd.warned "$cache/$key"/sd.edges "$w/"
                echo "# $suite: verify's results from the cache ($cache/$key)"
                return 0
        fi
        corpus_verify_run "$suite" "$w"
        if mkdir -p "$cache" 2> /dev/null && [ -w "$cache" ] && [ -s "$w/sd.verdicts" ]; then
                rm -rf "$cache/$key.new" "$cache/$key" &&
                        mkdir "$cache/$key.new" &&
                        cp "$w"/sd.verdicts "$w"/sd.warned "$w"/sd.edges "$cache/$key.new/" &&
                        find "$cache" -mindepth 1 -maxdepth 1 ! -name "$key.new" -exec rm -rf {} + &&
                        mv "$cache/$key.new" "$cache/$key" ||
                        echo "# $suite: could not cache verify's results in $cache"
        fi
}

corpus_verify_run() {
        local suite=$1 w=$2 b
        : > "$w/sd.verdicts"; : > "$w/sd.warned"; : > "$w/sd.dump"
        for b in $(corpus_batches "$w"); do
                "$LAB/lab-oracle.sh" "$suite" "$w/$b"/* > "$w/$b.sd.out" 2> "$w/$b.sd.err" || true
                cat "$w/$b.sd.out" >> "$w/sd.dump"
                # "/lab/NAME:LINE: message": a warning about that line of that file
                sed -n 's|^/lab/\([^:/]*:[0-9][0-9]*\): .*|\1|p' "$w/$b.sd.err" >> "$w/sd.warned"
                # verdicts: a dumped unit is loaded ("Unit Load State"); one that failed says why
                awk -v dir="$w/$b" -v inst="$(corpus_instance "$suite")" '
                        BEGIN { while ((("ls " dir) | getline f) > 0) given[f] = 1 }
                        /^\t-> Unit / { u = $3; sub(/:$/, "", u); next }
                        /^\t\tUnit Load State: / && u != "" { st[u] = $4; next }
                        END { for (f in given) {
                                u = f; if (u ~ /@\./) sub(/@\./, "@" inst ".", u)
                                x = (u in st) ? st[u] : "refused"; print f, x } }' "$w/$b.sd.out" >> "$w/sd.verdicts"
                # refused ones: the load state from the reason verify logs
                sed -n 's|^\([^ :]*\): Failed to load configuration: \(.*\)|\1 \2|p' "$w/$b.sd.err" |
                        awk '{ s = $0; sub(/^[^ ]* /, "", s)
                               st = "error"
                               if (s == "Exec format error") st = "bad-setting"
                               if (s == "No such file or directory") st = "not-found"
                               print $1, st }' >> "$w/$b.sd.refused"
                # an empty file is a masked unit: verify says so and loads nothing (its load state is masked)
                sed -n 's|^Unit \([^ ]*\) is masked\.$|\1 masked|p' "$w/$b.sd.err" >> "$w/$b.sd.refused"
        done
        cat "$w"/b*.sd.refused 2> /dev/null | sort -u > "$w/sd.refused" || true
        awk -v inst="$(corpus_instance "$suite")" 'FNR == NR { r[$1] = $2; next }
             { u = $1; if (u ~ /@\./) sub(/@\./, "@" inst ".", u)
               if ($2 == "refused") { x = (u in r) ? r[u] : "error"; $2 = x }; print }' "$w/sd.refused" "$w/sd.verdicts" |
                sort -u > "$w/sd.verdicts.tmp" && mv "$w/sd.verdicts.tmp" "$w/sd.verdicts"
        sort -u -o "$w/sd.warned" "$w/sd.warned"
        graph_oracle_dump2tsv < "$w/sd.dump" | corpus_own_edges "$w" "$(corpus_instance "$suite")" > "$w/sd.edges"
}

# Edges of the corpus units only (a dump also shows the tree's units they pulled in); INSTANCE: corpus_instance.
corpus_own_edges() {
        awk -F'\t' -v files="$1/files" -v inst="$2" '
                BEGIN { while ((getline l < files) > 0) { split(l, a, " "); u = a[2]; sub(/@\./, "@" inst ".", u); own[u] = 1 } }
                $1 in own' | sort -u
}

corpus_bootrace() {
        local suite=$1 w=$2 ver b
        ver=$(oracle_version "$suite")
        : > "$w/br.verdicts"; : > "$w/br.warned"; : > "$w/br.graph"
        for b in $(corpus_batches "$w"); do
                ( cd "$w/$b" && bootrace show --systemd="$ver" --root="$LAB_SRV/$suite" ./* ) \
                        > "$w/$b.br.out" 2> "$w/$b.br.err" || true
                # a unit-level refusal names its line for the reader, but systemd logs it without one: not a
                # warned line
                grep -v -e 'Refusing (load state' -e 'no unit name can be made from the path' "$w/$b.br.err" |
                        sed -n 's#^[^ ]*/\([^:/]*:[0-9][0-9]*\): \(warning\|error\): .*#\1#p' >> "$w/br.warned"
                awk '/^# / { u = $2; next } /^LoadState: / && u != "" { print u, $2; u = "" }' "$w/$b.br.out" |
                        awk -v dir="$w/$b" -v inst="$(corpus_instance "$suite")" '
                                BEGIN { while ((("ls " dir) | getline f) > 0) { u = f; sub(/@\./, "@" inst ".", u); name[u] = f } }
                                { x = ($1 in name) ? name[$1] : $1; print x, $2 }' >> "$w/br.verdicts"
                ( cd "$w/$b" && bootrace graph --offline --systemd="$ver" --root="$LAB_SRV/$suite" ./* ) \
                        >> "$w/br.graph" 2> /dev/null || true
        done
        sort -u -o "$w/br.verdicts" "$w/br.verdicts"
        sort -u -o "$w/br.warned" "$w/br.warned"
        graph_oracle_br2tsv < "$w/br.graph" | corpus_own_edges "$w" "$(corpus_instance "$suite")" > "$w/br.edges"
}

# "NAME STATE[,STATE...]" per name, sorted: the states a verdicts file gives a name.
corpus_state_sets() {
        sort -u "$1" | awk '{ s[$1] = ($1 in s) ? s[$1] "," $2 : $2 } END { for (n in s) print n, s[n] }' | sort
}

corpus_compare() {
        local suite=$1 w=$2 exc=$3 ver
        ver=$(oracle_version "$suite")
        {
                # a name staged in several batches (test-fstab-generator's sysroot.mount) has the set of its
                # states on each side
                join -a1 -a2 -e none -o 0,1.2,2.2 <(corpus_state_sets "$w/sd.verdicts") \
                        <(corpus_state_sets "$w/br.verdicts") |
                        awk '$2 != $3 { print "verdict " $1 " systemd=" $2 " bootrace=" $3 }'
                comm -23 "$w/sd.warned" "$w/br.warned" | sed 's/^/warned /; s/$/ only-systemd/'
                comm -13 "$w/sd.warned" "$w/br.warned" | sed 's/^/warned /; s/$/ only-bootrace/'
                graph_oracle_compare "$w/sd.edges" "$w/br.edges" |
                        awk -F'\t' '$1 ~ /^only-/ { print "edge " $3 "/" $4 "/" $5 " " $1 }'
        } > "$w/diff.all"
        : > "$w/excused"
        # a "gap:" entry for this version that excuses nothing is stale: it goes into $w/stale (the test fails on
        # it); "host:" entries may excuse nothing on another host (its name, its cgroup hierarchy)
        awk -v ver="$ver" '
                FNR == NR { if ($0 ~ /^[ \t]*(#|$)/) next
                            if (NF < 4) { print "bad exception line " FNR ": " $0 > "/dev/stderr"; exit 2 }
                            if ($1 != "*" && ("," $1 ",") !~ ("," ver ",")) next
                            n++; kind[n] = $2; pat[n] = $3; where[n] = FNR; gap[n] = ($4 == "gap:"); next }
                { for (i = 1; i <= n; i++) if ($1 == kind[i] && glob($2, pat[i])) { used[i] = 1; print > excused; next }
                  print }
                END { for (i = 1; i <= n; i++) if (!used[i] && gap[i])
                        print "line " where[i] ": " kind[i] " " pat[i] " (for " ver ") excuses nothing" > stale }
                function glob(s, p,   r) {
                        r = p; gsub(/[.+^$(){}|\\]/, "\\\\&", r); gsub(/\*/, ".*", r); gsub(/\?/, ".", r)
                        return s ~ ("^" r "$") }' excused="$w/excused" stale="$w/stale" "$exc" "$w/diff.all" > "$w/diff"
        [ -e "$w/stale" ] || : > "$w/stale"
}

# Agreement line for the report: files, verdicts (distinct name and state pairs), warned lines, refusals, edges.
corpus_summary() {
        local suite=$1 w=$2 ver files vtotal vagree warned_sd warned_both warned_br ref_sd ref_both e_sd e_both e_only_sd e_only_br
        ver=$(oracle_version "$suite")
        files=$(wc -l < "$w/files")
        vtotal=$(sort -u "$w/sd.verdicts" | wc -l)
        vagree=$(comm -12 <(sort -u "$w/sd.verdicts") <(sort -u "$w/br.verdicts") | wc -l)
        warned_sd=$(wc -l < "$w/sd.warned"); warned_both=$(comm -12 "$w/sd.warned" "$w/br.warned" | wc -l)
        warned_br=$(comm -13 "$w/sd.warned" "$w/br.warned" | wc -l)
        ref_sd=$(awk '$2 != "loaded"' "$w/sd.verdicts" | wc -l)
        ref_both=$(comm -12 <(sort -u "$w/sd.verdicts") <(sort -u "$w/br.verdicts") | awk '$2 != "loaded"' | wc -l)
        # edges: systemd's labelled edges that bootrace has too (one labelled twice, from the file and from a
        # mounts-for path, is matched by bootrace's one edge), and bootrace's edges systemd does not have
        e_sd=$(wc -l < "$w/sd.edges")
        read -r e_only_sd e_only_br < <(graph_oracle_compare "$w/sd.edges" "$w/br.edges" |
                awk -F'\t' '$1 == "only-systemd" { s++ } $1 == "only-bootrace" { b++ } END { print s + 0, b + 0 }')
        e_both=$((e_sd - e_only_sd))
        printf '# %-8s systemd %s: %d files, verdicts %d/%d, warned lines %d/%d (and %d of bootrace only), refusals %d/%d, edges %d/%d (and %d of bootrace only), %d excused\n' \
                "$suite" "$ver" "$files" "$vagree" "$vtotal" "$warned_both" "$warned_sd" "$warned_br" "$ref_both" "$ref_sd" \
                "$e_both" "$e_sd" "$e_only_br" "$(wc -l < "$w/excused" 2> /dev/null || echo 0)"
}
