#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The versions in rules/unit-keys.xml against real systemd 247, 252, 257 and 262 (the lab trees):
#  1. every section.key the rules know at the tree's version (not counting keys systemd ignores) is exactly what the
#     tree's systemd lists with dump-configuration-items, and nothing else;
#  2. every key that appeared or disappeared in 248..NEWEST (the newest modelled version) is put into unit files and loaded with the real
#     systemd-analyze verify (lab-oracle.sh): "Unknown key" warnings must come exactly for the keys the rules call
#     unknown at that version.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/oracle-lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
SRV=${LAB_SRV:-/srv/lab}
export LAB_SRV=$SRV
# shellcheck disable=SC2086
lab_judged $LAB_SUITES
newest=$(lab_model_newest)
QUERY=$(wrap_program "$top_builddir/tests/unit/rules-query")

# The oracle's unit files: one per unit type, a key per line; $TMP/oracle/lines maps FILE:LINE to the key.
"$QUERY" range 248 "$newest" > "$TMP/range" || exit 1
mkdir -p "$TMP/oracle"
awk -v dir="$TMP/oracle" '
        BEGIN {
                name["service"] = "rules-oracle.service"; name["socket"] = "rules-oracle.socket"
                name["timer"] = "rules-oracle.timer"; name["path"] = "rules-oracle.path"
                name["mount"] = "labrules.mount"; name["automount"] = "labrules.automount"
                head["service"] = "[Service]\nExecStart=/bin/true"; head["socket"] = "[Socket]\nListenStream=/run/rules-oracle"
                head["timer"] = "[Timer]\nOnActiveSec=1h"; head["path"] = "[Path]\nPathExists=/run/rules-oracle"
                head["mount"] = "[Mount]\nWhat=tmpfs\nWhere=/labrules"; head["automount"] = "[Automount]\nWhere=/labrules"
        }
        { type = $1; sec = $2; key = $3
          if (sec == "Unit" || sec == "Install") type = "service"   # [Unit]/[Install] keys: once, in the service
          if (!(type in name)) next                                  # swap, slice, scope: covered via the service
          f = dir "/" name[type]
          if (!(f in n)) { printf "[Unit]\nDescription=rules oracle\n%s\n", head[type] > f; n[f] = 2 + split(head[type], x, "\n") }
          if (cur[f] != sec) { print "[" sec "]" > f; n[f]++; cur[f] = sec }
          print key "=" > f; n[f]++   # empty: a reset for most keys, never "refusing" the file
          print name[type] ":" n[f], sec, key, $4, $5 > (dir "/lines")
        }' "$TMP/range"
n_keys=$(wc -l < "$TMP/oracle/lines")
echo "# $n_keys keys appeared or disappeared in 248..$newest; checked with systemd-analyze verify in each tree"

for suite in $LAB_JUDGED; do
        tree=$SRV/$suite
        v=$(oracle_version "$suite")

        test_expect "$suite: rules = dump-configuration-items of systemd $v" sh -c '
                chroot "$1" /lib/systemd/systemd --dump-configuration-items 2> /dev/null |
                        awk "/^\\[/ { s = substr(\$0, 2, length(\$0) - 2); next } /=/ { split(\$0, a, \"=\"); print s \".\" a[1] }" |
                        sort -u > "$4/$5.dump"
                [ $(wc -l < "$4/$5.dump") -gt 900 ] || { echo "dump too short"; exit 1; }
                "$2" dump "$3" > "$4/$5.rules" || exit 1
                echo "# systemd $3: $(wc -l < "$4/$5.dump") section.keys, rules: $(wc -l < "$4/$5.rules")"
                diff "$4/$5.dump" "$4/$5.rules" | sed "s/^</only systemd knows/; s/^>/only the rules know/"
                cmp -s "$4/$5.dump" "$4/$5.rules"' _ "$tree" "$QUERY" "$v" "$TMP" "$suite"

        test_expect "$suite: systemd-analyze verify agrees on $n_keys keys of 248..$newest (systemd $v)" sh -c '
                lab=$1 suite=$2 v=$3 dir=$4/oracle
                "$lab/lab-oracle.sh" "$suite" "$dir"/*.service "$dir"/*.socket "$dir"/*.timer "$dir"/*.path \
                        "$dir"/*.mount "$dir"/*.automount > /dev/null 2> "$dir/$suite.err"
                grep -q "rules-oracle" "$dir/$suite.err" || { echo "no output from the oracle"; exit 1; }
                # "/lab/NAME:LINE: Unknown key name X in section Y" (247) or "Unknown key X in section [Y]"
                sed -n "s|^/lab/\([^:]*:[0-9]*\): Unknown key.*|\1|p" "$dir/$suite.err" | sort -u > "$dir/$suite.unknown"
                bad=0 agree=0
                while read -r where sec key since until; do
                        if [ "$v" -ge "$since" ] && { [ "$until" = 0 ] || [ "$v" -le "$until" ]; }; then want=known; else want=unknown; fi
                        if grep -qx "$where" "$dir/$suite.unknown"; then got=unknown; else got=known; fi
                        if [ $want = $got ]; then agree=$((agree + 1))
                        else echo "$sec.$key (since $since, until $until): rules say $want at $v, systemd says $got"; bad=1; fi
                done < "$dir/lines"
                echo "# systemd $v: $agree keys agree"
                [ $bad = 0 ] && [ $agree -gt 0 ]' _ "$LAB" "$suite" "$v" "$TMP"
done
