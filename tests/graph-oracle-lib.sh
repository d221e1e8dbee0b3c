# SPDX-License-Identifier: LGPL-2.1-or-later
# graph-oracle-lib.sh - comparing bootrace's dependency graph with real systemd's. Sourced after lib.sh.
#
# graph_oracle_dump2tsv < verify-dump
#     one line per dependency a dumped unit has of its own (systemd's "origin-*" labels; "destination-*" is the
#     other unit's edge seen from here): UNIT TYPE OTHER LABEL, tab-separated. RequiresMountsFor=/WantsMountsFor=
#     entries are included with the path as OTHER.
# graph_oracle_br2tsv < "bootrace graph --format=text" output
#     the same for bootrace, plus a fifth column: bootrace's class of the edge (file, drop-in, link, exec, implicit,
#     default, slice, type, path).
# graph_oracle_compare SYSTEMD.tsv BOOTRACE.tsv
#     matches the two. An edge bootrace made from a RequiresMountsFor= path (class path) matches systemd's edge
#     whether systemd labels it origin-path or with the label of the entry (origin-file/-implicit): systemd uses
#     the entry's label when the mount unit happened to be loaded first, origin-path otherwise (load order); it
#     also matches when bootrace has the same edge written in the file, as systemd merges the two.
#     Prints "agree CLASS N TOTAL" per class, then "only-systemd ..." / "only-bootrace ..." lines.
graph_oracle_dump2tsv() {
        awk -F'\t' '
                /^\t-> Unit / { u = $0; sub(/^\t-> Unit /, "", u); sub(/:$/, "", u); next }
                /^\t\t[A-Za-z]+: .* \(.*origin-/ {
                        line = $0; sub(/^\t\t/, "", line)
                        k = line; sub(/: .*/, "", k)
                        if (k !~ /^(Requires|Requisite|Wants|BindsTo|PartOf|Upholds|Conflicts|Before|After|OnFailure|OnSuccess|Triggers|TriggeredBy|PropagatesReloadTo|ReloadPropagatedFrom|PropagatesStopTo|StopPropagatedFrom|JoinsNamespaceOf|RequiresMountsFor|WantsMountsFor)$/) next
                        v = line; sub(/^[^:]*: /, "", v)
                        o = v; sub(/^.* \(/, "", o); sub(/\)$/, "", o)
                        sub(/ \([^)]*\)$/, "", v)
                        n = split(o, a, " ")
                        for (i = 1; i <= n; i++)
                                if (a[i] ~ /^origin-/) { x = a[i]; sub(/^origin-/, "", x); print u "\t" k "\t" v "\t" x }
                }' | sort -u
}

graph_oracle_br2tsv() {
        awk -F'\t' '{
                o = $5; c = o; sub(/ .*/, "", c)
                if (c == "mounts-for") c = "path"
                print $1 "\t" $2 "\t" $3 "\t" $4 "\t" c
        }' | sort -u
}

graph_oracle_compare() {
        awk -F'\t' '
                FNR == NR { sd[$1 "\t" $2 "\t" $3 "\t" $4] = 1; next }
                {
                        k4 = $1 "\t" $2 "\t" $3 "\t" $4; k3 = $1 "\t" $2 "\t" $3
                        if ($5 == "path") { mf[k3] = 1; next }
                        br[k4] = $5
                }
                END {
                        for (k in sd) {
                                split(k, f, "\t"); k3 = f[1] "\t" f[2] "\t" f[3]
                                if (k in br) {
                                        agree[br[k]]++; total[br[k]]++; used[k] = 1
                                        # the same edge from a mounts-for entry too: systemd merges the two
                                        # into one, labelled as the entry when the mount unit was loaded
                                        if (k3 in mf) mfused[k3] = 1
                                        continue
                                }
                                if ((f[4] == "path" || f[4] == "file" || f[4] == "implicit") && (k3 in mf)) {
                                        if (!(k3 in mfused)) { agree["path"]++; total["path"]++ }
                                        mfused[k3] = 1; continue
                                }
                                c = f[4] == "file" ? "file-or-exec" : f[4]
                                total[c]++; print "only-systemd\t" c "\t" k
                        }
                        for (k in br) if (!(k in used)) { total[br[k]]++; print "only-bootrace\t" br[k] "\t" k }
                        for (k in mf) if (!(k in mfused)) {
                                total["path"]++; print "only-bootrace\tpath\t" k "\t(mounts-for)"
                        }
                        for (c in total) print "agree\t" c "\t" agree[c] + 0 "\t" total[c]
                }' "$1" "$2" | sort
}
