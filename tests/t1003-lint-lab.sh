#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# No false positives on real systems: the whole bullseye, bookworm, trixie and forky lab roots lint clean at
# --fail-on=warning except for the findings listed (with their justification) in fixtures/lint-lab/SUITE.allowed,
# and correct early units of bookworm lint clean for --target debian-bookworm with and without the root.
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
lab_require $LAB_SUITES
export LAB_SRV=${LAB_SRV:-/srv/lab}
# shellcheck disable=SC2086
lab_judged $LAB_SUITES

for suite in $LAB_JUDGED; do
        test_expect "$suite: the whole root lints without unexpected findings" sh -c '
                suite=$0 out=$1 allowed=$2
                rc=0; "$BOOTRACE" lint -q --root="$LAB_SRV/$suite" --format=json > "$out" || rc=$?
                [ $rc = 0 ] || [ $rc = 1 ] || { echo "exit $rc"; exit 1; }
                jq -r ".findings[] | select(.suppressed == null) | \"\(.unit) \(.check)\"" "$out" | sort -u > "$out.got"
                sed -e "s/#.*//" -e "/^[[:space:]]*$/d" "$allowed" 2> /dev/null | awk "{print \$1, \$2}" | sort -u > "$out.allowed"
                unexpected=$(comm -23 "$out.got" "$out.allowed")
                [ -z "$unexpected" ] || { echo "unexpected findings:"; echo "$unexpected";
                        jq -r ".findings[] | \"\(.file):\(.line): \(.check): \(.message)\"" "$out" | head -40; exit 1; }' \
                "$suite" "$TMP/$suite.json" "$FIXTURES/lint-lab/$suite.allowed"
done

early="systemd-timesyncd.service systemd-pstore.service systemd-rfkill.service systemd-random-seed.service
       systemd-backlight@.service"
for u in $early; do
        f=$LAB_SRV/bookworm/lib/systemd/system/$u
        [ -f "$f" ] || f=$LAB_SRV/bookworm/usr/lib/systemd/system/$u
        if [ -f "$f" ]; then
                test_expect "bookworm's $u is clean for debian-bookworm (base model)" \
                        bootrace lint -q --target debian-bookworm "$f"
                test_expect "bookworm's $u is clean in its own root" \
                        bootrace lint -q --root="$LAB_SRV/bookworm" "$f"
        else
                test_skip "bookworm's $u is clean" "not in this bookworm tree"
        fi
done
