#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The JSON contract of `bootrace fix --format=json` and of the fix/fix_details fields of `bootrace lint
# --format=json` (bootrace(1)): the fields scripts rely on are there, and they carry the same choice as the text
# output - on the LP#1750780 case (xenial, cloud-init-local.service after the unit), several targets, a drop-in,
# a race without a repair, and a clean unit.
. "$(dirname "$0")/lib.sh"
command -v jq > /dev/null || skip_all "jq is not installed"

# case_dir CASE: a copy of the fixture case to run in
case_dir() {
        local dir=$FIXTURES/fix/$1 out=$TMP/$1
        mkdir -p "$out"
        [ -d "$out/units" ] || cp -R "$dir/units" "$out/units" 2> /dev/null || true
        if [ -d "$dir/root" ] && [ ! -d "$out/root" ]; then fixture_root "$dir" "$out/root"; fi
        echo "$out"
}

# fix_json CASE [EXIT]: fix --format=json with the case's arguments into $TMP/CASE.json
fix_json() {
        local dir rc=0
        dir=$(case_dir "$1")
        # shellcheck disable=SC2046 # args is a word list on purpose
        (cd "$dir" && "$BOOTRACE" fix --format=json $(cat "$FIXTURES/fix/$1/args")) > "$TMP/$1.json" || rc=$?
        [ $rc = "${2:-1}" ] || { echo "exit status $rc"; cat "$TMP/$1.json"; return 1; }
        jq -e . "$TMP/$1.json" > /dev/null
}

jqt() { jq -e "$1" "$2" > /dev/null || { echo "not true: $1"; jq . "$2" | head -80; return 1; }; }

lp_chosen() {
        fix_json lp1750780-xenial || return 1
        jqt '
                .tool == "bootrace" and (.version | type == "string") and .systemd == [229] and
                .targets == ["ubuntu-xenial"] and (.fixes | length) == 1 and
                (.fixes[0] | .unit == "open-vm-tools.service" and .file == "units/open-vm-tools.service" and
                        .fragment == "units/open-vm-tools.service" and
                        .finding == "private-tmp-before-remount" and .findings[0].systemd == 229 and
                        .findings[0].target == "ubuntu-xenial" and .findings[0].line == 8 and
                        (.findings | map(.check)) == ["private-tmp-before-remount", "exec-write-removed-by-tmpfiles"] and
                        .candidate == "After=systemd-tmpfiles-setup.service" and .lines == 1 and
                        .written == false and
                        (.delayed | map(select(.unit == "cloud-init-local.service" and .systemd == 229 and
                                               .waits_for[0] == "systemd-tmpfiles-setup.service" and
                                               (.waits_for | index("local-fs.target")) != null)) | length) == 1 and
                        .waits_for[0].units[0] == "systemd-tmpfiles-setup.service" and
                        (.diff | startswith("--- units/open-vm-tools.service\n+++ units/open-vm-tools.service\n")) and
                        (.diff | contains("\n+After=systemd-tmpfiles-setup.service\n")))' "$TMP/lp1750780-xenial.json"
}
# (xenial's Debian-family tmp.conf empties /tmp at boot: the repair must order after tmpfiles-setup, and the
# report says what that costs: cloud-init-local.service now waits for it and for local-fs.target)
test_expect "LP#1750780 on xenial: the repair that closes both races, and whom it delays until local-fs.target" lp_chosen

lp_rejected() {
        jqt '
                .fixes[0].rejected as $r |
                ($r[] | select(.candidate == "After=systemd-remount-fs.service") |
                        .closes == false and .new_cycle == false and
                        (.reason | contains("closes private-tmp-before-remount but not exec-write-removed-by-tmpfiles"))) and
                ($r[] | select(.candidate == "After=local-fs.target") | .closes == false and
                        (.reason | contains("but not exec-write-removed-by-tmpfiles"))) and
                ($r[] | select(.candidate == "drop PrivateTmp=yes (line 8)") | .closes == true and
                        (.reason | contains("closes every race")) and (.reason | contains("sandboxing"))) and
                ($r[] | select(.candidate == "RequiresMountsFor=/tmp /var/tmp") | .closes == false and
                        (.reason | contains("-.mount"))) and
                all($r[]; (.reason | length) > 0)' "$TMP/lp1750780-xenial.json"
}
test_expect "LP#1750780: After=systemd-remount-fs.service closes the EROFS race, not the wipe; dropping PrivateTmp= costs the sandbox" lp_rejected

text_equals_json() {
        local dir rc=0
        dir=$(case_dir lp1750780-xenial)
        # shellcheck disable=SC2046
        (cd "$dir" && "$BOOTRACE" fix -q $(cat "$FIXTURES/fix/lp1750780-xenial/args")) > "$TMP/text.diff" || rc=$?
        [ $rc = 1 ] && jq -j '.fixes[0].diff' "$TMP/lp1750780-xenial.json" | cmp - "$TMP/text.diff"
}
test_expect "the JSON diff is the diff of the text output (-q: the diff alone)" text_equals_json

multi() {
        fix_json cycle-ptmp-early-xenial-bionic || return 1
        jqt '
                .systemd == [229, 237] and .targets == ["ubuntu-xenial", "ubuntu-bionic"] and
                (.fixes[0].findings | map(.target) | unique) == ["ubuntu-bionic", "ubuntu-xenial"] and
                .fixes[0].candidate ==
                        "After=systemd-tmpfiles-setup.service + drop Before=systemd-remount-fs.service (line 8)" and
                (.fixes[0].findings | map(.line)) == [12, 12, null, null] and
                (.fixes[0].rejected[] | select(.candidate == "After=systemd-remount-fs.service") |
                        .new_cycle == true and (.reason | contains("ubuntu-bionic"))) and
                (.fixes[0].rejected[] | select(.candidate == "drop Before=systemd-remount-fs.service (line 8)") |
                        .closes == false and (.reason | contains("ubuntu-xenial")))' \
                "$TMP/cycle-ptmp-early-xenial-bionic.json"
}
test_expect "several targets: systemd and targets list each, one repair valid for all" multi

dropin() {
        fix_json dropin-cycle-252 || return 1
        jqt '
                .fixes[0] | .candidate == "PrivateTmp=no" and (.note | contains("sandbox")) and
                .dropin.path == "units/racy-ptmp-early.service.d/bootrace-fix.conf" and
                (.dropin.text | contains("[Service]\nPrivateTmp=no\n")) and has("diff") == false and
                (.rejected[0].reason | contains("does not reset"))' "$TMP/dropin-cycle-252.json"
}
test_expect "a drop-in: dropin.path and dropin.text, the note on the sandbox, no diff field" dropin

none() {
        fix_json no-repair-dropin || return 1
        jqt '.fixes[0] | .candidate == null and (.reason | length > 0) and has("diff") == false and
                has("dropin") == false and .rejected[0].candidate == "drop Before=systemd-remount-fs.service (line 4)"' \
                "$TMP/no-repair-dropin.json"
}
test_expect "no repair: candidate null with the reason, exit status 1" none

clean() {
        fix_json clean 0 && jqt '.fixes == [] and .systemd == [229]' "$TMP/clean.json"
}
test_expect "nothing to fix: an empty fixes list, exit status 0" clean

# lint carries the same choice: fix as drop-in text (a string, as before) and fix_details
lint_json() {
        local dir=$1 rc=0; shift
        (cd "$dir" && "$BOOTRACE" lint -q --format=json "$@") > "$TMP/lint.json" || rc=$?
        [ $rc = 1 ] || { echo "lint exit status $rc"; return 1; }
}

lint_lp() {
        lint_json "$(case_dir lp1750780-xenial)" --root=root --target=ubuntu-xenial units || return 1
        jqt '
                [.findings[] | select(.check == "private-tmp-before-remount" or
                                      .check == "exec-write-removed-by-tmpfiles")] | length == 2 and
                all(.fix == "[Unit]\nAfter=systemd-tmpfiles-setup.service" and
                    .fix_details.candidate == "After=systemd-tmpfiles-setup.service" and
                    .fix_details.form == "drop-in" and .fix_details.lines == 1 and
                    (.fix_details.delayed | length) == 3 and
                    (.fix_details.rejected[] | select(.candidate == "After=systemd-remount-fs.service") | .reason |
                            contains("not exec-write-removed-by-tmpfiles")))' "$TMP/lint.json"
}
test_expect "lint --format=json: fix is the chosen repair as drop-in text, fix_details says how it was chosen" lint_lp

lint_diff() {
        lint_json "$(case_dir cycle-ptmp-early-252)" --target=debian-bookworm units || return 1
        jqt '
                [.findings[] | select(.check == "ordering-cycle" or .check == "sandbox-ordered-too-early")] |
                length == 2 and all(.fix_details.form == "diff" and
                        .fix_details.candidate == "drop Before=systemd-remount-fs.service (line 8)" and
                        (.fix | startswith("--- units/racy-ptmp-early.service\n")) and
                        (.fix | contains("\n-Before=systemd-remount-fs.service\n")))' "$TMP/lint.json"
}
test_expect "lint --format=json: a repair that drops an ordering is the diff of the file" lint_diff

# a cycle that only edges of another unit close: a's part is implicit (StateDirectory= orders it after the remount
# from 246), so a has no repair of its own; b has one
mkdir -p "$TMP/other/units"
cat > "$TMP/other/units/a.service" <<'UNIT'
[Unit]
DefaultDependencies=no
[Service]
ExecStart=/bin/true
StateDirectory=a
[Install]
WantedBy=multi-user.target
UNIT
cat > "$TMP/other/units/b.service" <<'UNIT'
[Unit]
DefaultDependencies=no
After=a.service
Before=systemd-remount-fs.service
[Service]
ExecStart=/bin/true
[Install]
WantedBy=multi-user.target
UNIT
lint_none() {
        lint_json "$TMP/other" --systemd=252 units || return 1
        jqt '
                ([.findings[] | select(.unit == "a.service" and .check == "ordering-cycle")] | length == 1 and
                 all(has("fix") == false and .fix_details.candidate == null and (.fix_details.reason | length > 0))) and
                ([.findings[] | select(.unit == "b.service" and .check == "ordering-cycle")] | length == 1 and
                 all(.fix_details.form == "diff"))' "$TMP/lint.json"
}
test_expect "lint --format=json: a unit without a repair of its own gets fix_details with the reason, no fix" lint_none
