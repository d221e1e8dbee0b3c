#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Values per version (rules/unit-keys.xml value facts): a value the version does not accept is warned about with
# file and line and ignored, knock-on effects included; a bad value of a fatal key, and a scope read from a file,
# refuse the unit with the load state systemd gives.
. "$(dirname "$0")/lib.sh"
d=$TMP/u
mkdir -p "$d"

# show_state VERSION FILE: the LoadState line of show; stderr in $TMP/err
show_state() {
        bootrace show --systemd="$1" "$2" 2> "$TMP/err" | sed -n 's/^LoadState: //p'
}
warned() { grep -q -- "$1" "$TMP/err" || { echo "no warning /$1/:"; cat "$TMP/err"; return 1; }; }

printf '[Service]\nExecStart=/bin/true\nRestart=sometimes\nNice=40\nCPUSchedulingPolicy=ext\nMemoryLimit=1G\n' \
        > "$d/values.service"
values_252() {
        [ "$(show_state 252 "$d/values.service")" = loaded ] || return 1
        warned "values.service:3: warning: Restart=sometimes" && warned "values.service:4: warning: Nice=40: out of range" &&
                warned "values.service:5: warning: CPUSchedulingPolicy=ext" &&
                warned "values.service:6: warning: MemoryLimit=: deprecated"
}
test_expect "252: bad enum words and numbers are warned about with their line, the unit loads" values_252
mem_247() { show_state 247 "$d/values.service" > /dev/null; ! grep -q "MemoryLimit=: deprecated" "$TMP/err"; }
test_expect "247: no deprecation warning for MemoryLimit= (from 252)" mem_247

printf '[Service]\nType=notify-reload\nBusName=org.example.X\nExecStart=/bin/true\n' > "$d/reload.service"
reload() {
        bootrace show --systemd="$1" "$d/reload.service" > "$TMP/out" 2> "$TMP/err"
        if [ "$1" = 252 ]; then
                warned "reload.service:2: warning: Type=notify-reload" &&
                        grep -q '^Requires=dbus.socket' "$TMP/out" && grep -q '^After=dbus.socket' "$TMP/out"
        else
                ! grep -q "Type=notify-reload" "$TMP/err" && ! grep -q '^Requires=dbus.socket' "$TMP/out"
        fi
}
test_expect "252: Type=notify-reload is ignored, BusName= makes it Type=dbus with Requires/After=dbus.socket" reload 252
test_expect "253: Type=notify-reload is known" reload 253

printf '[Service]\nDynamicUser=maybe\nExecStart=/bin/true\n' > "$d/dyn.service"
dyn() { [ "$(show_state 252 "$d/dyn.service")" = bad-setting ] && warned "dyn.service:2: .*DynamicUser=maybe"; }
test_expect "DynamicUser=maybe refuses the unit (bad-setting), naming the line" dyn
printf '[Service]\nGroup=a:b\nExecStart=/bin/true\n' > "$d/grp.service"
test_expect "Group=a:b refuses the unit" sh -c '[ "$1" = bad-setting ]' _ "$(show_state 252 "$d/grp.service")"
printf '[Service]\nWorkingDirectory=rel/dir\nExecStart=/bin/true\n' > "$d/wd.service"
test_expect "a relative WorkingDirectory= refuses the unit" sh -c '[ "$1" = bad-setting ]' _ "$(show_state 252 "$d/wd.service")"
printf '[Scope]\n' > "$d/x.scope"
test_expect "a .scope file is never loaded: not-found" sh -c '[ "$1" = not-found ]' _ "$(show_state 252 "$d/x.scope")"
printf '[Service]\nRestrictNamespaces=time\nExecStart=/bin/true\n' > "$d/ns.service"
ns() { show_state "$1" "$d/ns.service" > /dev/null; grep -q "RestrictNamespaces=time" "$TMP/err"; }
test_expect "RestrictNamespaces=time is warned about on 247" ns 247
test_expect_fail "RestrictNamespaces=time is known on 252" ns 252

# A file refused at a line (here invalid UTF-8, 252) is an error unit, but systemd's config_parse() has read and
# warned about the lines before it: so does bootrace, and it shows none of those settings as the unit's.
printf '[Service]\nExecStart=/bin/true\nFrobnicate=yes\nNice=40\nDescription=\xff\n' > "$d/refused.service"
refused() {
        bootrace show --systemd=252 "$d/refused.service" > "$TMP/out" 2> "$TMP/err"
        grep -q '^LoadState: error' "$TMP/out" && warned "refused.service:3: warning: unknown key Frobnicate=" &&
                warned "refused.service:4: warning: Nice=40" && warned "refused.service:5: error: invalid UTF-8" &&
                ! grep -q 'ExecStart=' "$TMP/out"
}
test_expect "a refused file still warns about its lines before the refusing one, as systemd does" refused
# scope_load() refuses a scope before it reads its file: nothing in it is warned about
printf '[Scope]\nFrobnicate=yes\nno equals sign\n' > "$d/y.scope"
scope_quiet() { [ "$(show_state 252 "$d/y.scope")" = not-found ] && ! grep -q 'warning' "$TMP/err"; }
test_expect "a .scope file is not read: no warnings about its lines" scope_quiet

# An unknown escape in a command line (\- here): from 228 systemd keeps it as written, warns, and loads the unit;
# before, the command failed and the service had no ExecStart=.
printf '[Service]\nExecStart=/bin/sh -c "echo a\\-b"\n' > "$d/esc.service"
esc() {
        [ "$(show_state "$1" "$d/esc.service")" = "$2" ] || return 1
        if [ "$2" = loaded ]; then warned "esc.service:2: warning: ExecStart=: unknown escape sequences"; fi
}
test_expect "252: an unknown escape in ExecStart= is warned about and kept, the unit loads" esc 252 loaded
test_expect "227: an unknown escape fails the command, the service is refused (load state error before 239)" esc 227 error

# A template given as a file is loaded as its instance NAME@i, as systemd-analyze verify does: %i is "i", %f "/i",
# and graph prints its edges (it printed nothing, and show called BindsTo=%i.device "not a valid unit name").
printf '[Unit]\nBindsTo=%%i.device\nRequiresMountsFor=%%f\n[Service]\nExecStart=/bin/true\n' > "$d/tpl@.service"
tpl_show() {
        bootrace show --systemd=252 "$d/tpl@.service" > "$TMP/out" 2> "$TMP/err" &&
                grep -q '^# tpl@i.service' "$TMP/out" && grep -q '^BindsTo=i.device' "$TMP/out" &&
                grep -q '^RequiresMountsFor=/i ' "$TMP/out" && ! grep -q 'not a valid unit name' "$TMP/err"
}
test_expect "show: a template file is its instance NAME@i" tpl_show
tpl_graph() {
        bootrace graph --offline --systemd=252 "$d/tpl@.service" > "$TMP/out" 2> "$TMP/err" &&
                grep -q "^tpl@i.service	BindsTo	i.device	" "$TMP/out"
}
test_expect "graph: a template file gives the edges of NAME@i" tpl_graph

# Specifiers in the values implicit dependencies come from are expanded first, as systemd does: the socket's
# paths give RequiresMountsFor= of /run/x.i/stdout and /run/y-NAME.sock, not of "%i" and "%t" as written.
printf '[Socket]\nListenStream=/run/x.%%i/stdout\nListenStream=%%t/y-%%p.sock\nService=foo.service\n' > "$d/sk@.socket"
spec_implicit() {
        bootrace graph --offline --systemd=252 "$d/sk@.socket" > "$TMP/out" 2> "$TMP/err" &&
                grep -q "^sk@i.socket	RequiresMountsFor	/run/x.i/stdout	" "$TMP/out" &&
                grep -q "^sk@i.socket	RequiresMountsFor	/run/y-sk.sock	" "$TMP/out" && ! grep -q '%' "$TMP/out"
}
test_expect "specifiers in a socket's paths are expanded for its implicit RequiresMountsFor=" spec_implicit

# The checks of each unit type after loading (mount_verify(), automount_verify(), swap_verify(), socket_verify(),
# timer_verify()): bad-setting from 239, error before (rules/features.xml refusal-bad-setting), naming the line.
printf '[Mount]\nWhat=/dev/sda1\nWhere=/srv/other\n' > "$d/srv-data.mount"
printf '[Mount]\nWhere=/srv/nowhat\n' > "$d/srv-nowhat.mount"
printf '[Mount]\nWhat=/dev/sda1\nWhere=/srv/ok/\n' > "$d/srv-ok.mount"
printf '[Automount]\nWhere=/x\n' > "$d/y.automount"
printf '[Swap]\nWhat=/dev/sdb2\n' > "$d/dev-sda2.swap"
printf '[Swap]\nWhat=/dev/sda3\n' > "$d/dev-sda3.swap"
printf '[Socket]\nListenStream=/run/a.sock\nListenDatagram=/run/b.sock\nListenStream=\nListenDatagram=\n' > "$d/reset.socket"
printf '[Timer]\nOnCalendar=daily\nOnCalendar=\n' > "$d/reset.timer"
refusal() { # VERSION FILE STATE [WARNING]
        [ "$(show_state "$1" "$d/$2")" = "$3" ] || { echo "$2 on $1: not $3"; cat "$TMP/err"; return 1; }
        [ -z "${4:-}" ] || warned "$4"
}
test_expect "a mount whose Where= does not give its name is refused, at the line" \
        refusal 252 srv-data.mount bad-setting "srv-data.mount:3: error: .*Where= setting doesn't match unit name"
test_expect "238: the same refusal is load state error" refusal 238 srv-data.mount error
test_expect "a mount without What= is refused" refusal 252 srv-nowhat.mount bad-setting "What= setting is missing"
test_expect "Where= is compared simplified (a trailing slash)" refusal 252 srv-ok.mount loaded
test_expect "an automount whose Where= does not give its name is refused" \
        refusal 252 y.automount bad-setting "y.automount:2: error: .*Where= setting doesn't match"
test_expect "a swap whose What= does not give its name is refused" \
        refusal 257 dev-sda2.swap bad-setting "dev-sda2.swap:2: error: .*Value of What= and unit name do not match"
test_expect "a swap whose What= gives its name loads" refusal 257 dev-sda3.swap loaded
test_expect "a socket whose Listen*= were all reset by empty assignments is refused" \
        refusal 252 reset.socket bad-setting "Unit has no Listen setting"
test_expect "a timer whose only trigger was reset is refused" refusal 252 reset.timer bad-setting "Timer unit lacks value setting"
test_expect "238: a timer without a trigger is load state error" refusal 238 reset.timer error

# From 257 verify loads a template file as NAME@test_instance (its --instance= changes it); bootrace does the same
# per version, and --instance=NAME names another.
tpl_inst() { # VERSION EXPECTED [OPTION]
        bootrace show --systemd="$1" ${3:+"$3"} "$d/tpl@.service" > "$TMP/out" 2> "$TMP/err" &&
                grep -q "^# tpl@$2.service" "$TMP/out" && grep -q "^BindsTo=$2.device" "$TMP/out" &&
                bootrace graph --offline --systemd="$1" ${3:+"$3"} "$d/tpl@.service" > "$TMP/out" 2> "$TMP/err" &&
                grep -q "^tpl@$2.service	BindsTo	$2.device	" "$TMP/out"
}
test_expect "256: a template file is NAME@i (show and graph)" tpl_inst 256 i
test_expect "257: a template file is NAME@test_instance, as 257's verify loads it" tpl_inst 257 test_instance
test_expect "--instance=NAME names the instance" tpl_inst 252 web1 --instance=web1
bad_inst() { bootrace show --systemd=257 --instance=a/b "$d/tpl@.service" > /dev/null 2> "$TMP/err"; [ $? = 2 ] &&
        warned "instance=a/b: not a valid instance name"; }
test_expect "--instance= that makes no valid unit name is a usage error" bad_inst

# From 258 the '!!' prefix is ignored with a notice (00a415fc8f): warned about on 258, not on 257.
printf '[Service]\nExecStart=!!/bin/true\n' > "$d/bangbang.service"
bangbang() { show_state "$1" "$d/bangbang.service" > /dev/null; grep -q "bangbang.service:2: warning: ExecStart=: the !! prefix is no longer supported" "$TMP/err"; }
test_expect "258: the !! prefix is warned about and ignored" bangbang 258
test_expect_fail "257: the !! prefix is still accepted" bangbang 257
