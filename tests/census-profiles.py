#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Census of cross-package ordering cycles: bootrace's lint with a target's default profile against real systemd.

    census-profiles.py [--suite bookworm] [--count 150] [--only PKG...] [--out TSV] [--bootrace PATH]

As root, with the lab tree $LAB_SRV/SUITE (../shared/lab/lab-build.sh). Picks a sample of the suite's packages
with early units: from the archive's Contents index (deb-fetch.sh -c), the packages (of --sections, default all)
that ship a service or socket and are at most 3 MB, downloaded once into $LAB_SRV/deb-cache/SUITE (deb-fetch.sh); of
those, in name order, the first COUNT whose units have DefaultDependencies=no or are ordered before, or wanted
by, an early-boot or network target (bookworm, 2026-12: of the 1072 packages of at most 3 MB that ship a service
or socket, 126 have early units, so --count 150 takes them all). For each package P, with D its direct
dependencies (Depends, Pre-Depends) and Recommends (apt installs those too) that ship units:
  bootrace lint --target=debian-SUITE --format=json P.deb D.deb...          (the default profile: ifupdown)
  systemd-analyze verify --root=R default.target                              (inside the lab tree, chrooted)
where R is the tree's units plus those of P, D and the profile's packages, enabled as their postinsts enable them
(gen-profiles.py's reading of dh_installsystemd's snippets, then systemctl --root=R enable). Every ordering cycle
of verify (it reports those it meets until deleting a job breaks the rest), as a set of units, must be one of
bootrace's, and the linted units with an ordering-cycle finding must be those in verify's cycles. --together
judges the --only packages as one installation. Prints one line per package (TSV with --out)
and a summary; exit status 1 when the two sides disagree anywhere.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
FETCH = os.path.join(TOP, "rules/profile-src/deb-fetch.sh")
sys.path.insert(0, os.path.join(TOP, "rules/profile-src"))
import importlib.util
_spec = importlib.util.spec_from_file_location("gen_profiles", os.path.join(TOP, "rules/profile-src/gen-profiles.py"))
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

EARLY_TARGETS = {"sysinit.target", "basic.target", "local-fs.target", "local-fs-pre.target", "remote-fs.target",
                 "remote-fs-pre.target", "network.target", "network-pre.target", "network-online.target",
                 "nss-lookup.target", "cryptsetup.target", "time-sync.target", "time-set.target"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def fetch(suite, pkgs):
    r = run([FETCH, suite] + list(pkgs))
    return [l for l in r.stdout.split("\n") if l.endswith(".deb")]


def cached(suite, name):
    cache = os.environ.get("DEB_CACHE", os.path.join(os.environ.get("LAB_SRV", "/srv/lab"), "deb-cache"))
    found = sorted(glob.glob(os.path.join(cache, suite, glob.escape(name) + "_*.deb")))
    return found[-1] if found else None


def contents_units(suite):
    """{package: section} of the packages that ship a system service or socket."""
    r = run([FETCH, "-c", suite])
    lists = os.path.dirname(r.stdout.strip().split("\n")[-1])
    out = {}
    for f in glob.glob(os.path.join(lists, "*Contents-*")):
        text = run(["sh", "-c", '/usr/lib/apt/apt-helper cat-file "$1" | '
                    'grep -E "^(usr/)?lib/systemd/system/[^/]+\\.(service|socket)[[:space:]]"', "-", f]).stdout
        for line in text.split("\n"):
            m = re.match(r"^(?:usr/)?lib/systemd/system/[^/]+\.(?:service|socket)\s+(\S+)$", line)
            if m:
                for sp in m.group(1).split(","):
                    sec, _, name = sp.rpartition("/")
                    out[name] = sec.split("/")[-1]
    return out


def packages_index(suite):
    """{package: {Size, Depends}} from the scratch apt's Packages file."""
    lists = os.path.join(os.environ.get("DEB_CACHE", os.path.join(os.environ.get("LAB_SRV", "/srv/lab"),
                                                                   "deb-cache")), suite, ".apt/lists")
    out, cur = {}, None
    for f in glob.glob(os.path.join(lists, "*_Packages*")):
        for line in run(["/usr/lib/apt/apt-helper", "cat-file", f]).stdout.split("\n"):
            if line.startswith("Package: "):
                cur = out.setdefault(line[9:].strip(), {})
            elif cur is not None and line.startswith(("Size: ", "Depends: ", "Pre-Depends: ", "Recommends: ")):
                k, v = line.split(": ", 1)
                cur[k] = (cur.get(k, "") + ", " + v) if k in cur else v
    return out


def deb_units(deb):
    return {os.path.basename(p): v for p, (k, v) in gen.deb_members(deb).items()
            if k == "file" and gen.is_unit_name(os.path.basename(p))
            and os.path.basename(os.path.dirname(p)) == "system"}


def is_early(units):
    for text in units.values():
        for sec, k, v in gen.parse_unit(text):
            if k == "DefaultDependencies" and v.lower() in ("no", "false", "0", "off"):
                return True
            if k in ("Before", "WantedBy", "RequiredBy") and set(v.split()) & EARLY_TARGETS:
                return True
    return False


def dep_names(field):
    out = []
    for alt in (field or "").split(","):
        n = alt.split("|")[0].strip().split(" ")[0].split(":")[0]
        if n:
            out.append(n)
    return out

# ---- bootrace's side


def finding_units(js):
    return {f["unit"] for f in js.get("findings", []) if f.get("check") == "ordering-cycle"}


def cycles_of_lint(js):
    """[frozenset(units)] of every cycle in ordering-cycle findings (each cycle once)."""
    out = set()
    for f in js.get("findings", []):
        if f.get("check") != "ordering-cycle":
            continue
        cur = None
        for e in f.get("evidence", []):
            if re.match(r"^cycle \d+ ", e):
                if cur:
                    out.add(frozenset(cur))
                cur = set()
                continue
            m = re.match(r"^  (\S+) (\w+)=(\S+) ", e)
            if cur is not None and m:
                cur |= {m.group(1), m.group(3)}
                continue
            if cur:
                out.add(frozenset(cur))
            cur = None
        if cur:
            out.add(frozenset(cur))
    return out

# ---- systemd's side


def cycles_of_verify(text):
    """[frozenset(units)] of every "Found ordering cycle" in verify's log."""
    out, cur = set(), None
    for line in text.split("\n"):
        m = re.search(r"Found ordering cycle on (\S+)/", line)
        if m:
            if cur:
                out.add(frozenset(cur))
            cur = {m.group(1)}
            continue
        m = re.search(r"Found dependency on (\S+)/", line)
        if m and cur is not None:
            cur.add(m.group(1))
            continue
        if cur and ("Job " in line and "deleted to break" in line or "Unable to break cycle" in line):
            out.add(frozenset(cur))
            cur = None
    if cur:
        out.add(frozenset(cur))
    return out


def merge_tree(src, dest):
    """cp -a src/. dest/, replacing what is there (a package's unit may replace the tree's alias)."""
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for f in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            s, d = os.path.join(dirpath, f), os.path.join(dest, rel, f)
            if os.path.lexists(d) and not (os.path.isdir(d) and not os.path.islink(d)):
                os.unlink(d)
            if os.path.islink(s):
                os.symlink(os.readlink(s), d)
            elif os.path.isfile(s):
                shutil.copy2(s, d)


def installed(tree):
    """The packages of the lab tree itself (dpkg's status): their units are in R already."""
    out = set()
    for line in open(os.path.join(tree, "var/lib/dpkg/status")):
        if line.startswith("Package: "):
            out.add(line[9:].strip())
    return out


def verify_root(tree, debs):
    """Builds R (the tree's units plus the packages', enabled) and runs verify --root=R default.target inside
    the tree. Returns (exit status, log)."""
    with tempfile.TemporaryDirectory() as tmp:
        R = os.path.join(tmp, "R")
        for d in ("etc/systemd", "usr/lib/systemd/system"):
            src = os.path.join(tree, d)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(R, d), symlinks=True)
        for l in ("lib", "bin", "sbin"):
            os.symlink("usr/" + l, os.path.join(R, l))
        os.makedirs(os.path.join(R, "usr/bin"), exist_ok=True)
        os.makedirs(os.path.join(R, "usr/sbin"), exist_ok=True)
        enable = []
        for deb in debs:
            x = os.path.join(tmp, "x")
            shutil.rmtree(x, ignore_errors=True)
            subprocess.run(["dpkg-deb", "-x", deb, x], check=True)
            for d in ("lib/systemd/system", "usr/lib/systemd/system", "etc/systemd/system"):
                src = os.path.join(x, d)
                if os.path.isdir(src) and not os.path.islink(src):
                    dest = os.path.join(R, "etc/systemd/system" if d.startswith("etc") else "usr/lib/systemd/system")
                    merge_tree(src, dest)
            enable += gen.enabled_by_postinst(gen.deb_postinst(deb))
        script = r'''
            set -e; tree=$1 R=$2; shift 2
            mount -t proc proc "$tree/proc"; mount --rbind /sys "$tree/sys"; mount --bind "$R" "$tree/lab"
            run() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C SYSTEMD_COLORS=0 SYSTEMD_PAGER=cat \
                    SYSTEMD_LOG_LEVEL=${LEVEL:-info} chroot "$tree" "$@"; }
            [ $# = 0 ] || run systemctl --root=/lab enable "$@" > /dev/null 2>&1 || true
            LEVEL=debug run systemd-analyze verify --man=no --root=/lab default.target
        '''
        r = run(["unshare", "-m", "--propagation", "private", "/bin/bash", "-c", script, "census", tree, R] + enable)
        return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--suite", default="bookworm")
    ap.add_argument("--count", type=int, default=150)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--together", action="store_true",
                    help="the --only packages as one installation: one lint, one verify")
    ap.add_argument("--sections", nargs="*", default=[], help="archive sections to sample (default: all)")
    ap.add_argument("--out")
    ap.add_argument("--bootrace", default=os.path.join(TOP, "bootrace"))
    a = ap.parse_args()
    srv = os.environ.get("LAB_SRV", "/srv/lab")
    tree = os.path.join(srv, a.suite)
    target = "debian-" + a.suite
    if not os.path.exists(os.path.join(tree, "usr/bin/systemd-analyze")):
        sys.exit(f"census: no lab tree {tree} (../shared/lab/lab-build.sh {a.suite})")
    # --only: no Contents index (77 MB); the dependencies considered are the packages named
    with_units = set(a.only) if a.only else contents_units(a.suite)
    fetch(a.suite, ["ifupdown"])  # the package index, before it is read
    index = packages_index(a.suite)
    if a.only:
        sample_names = a.only
    else:
        cands = sorted(n for n, sec in with_units.items() if (not a.sections or sec in a.sections) and n in index
                       and int(index[n].get("Size", "0")) <= 3_000_000)
        fetch(a.suite, cands)
        debs = {n: cached(a.suite, n) for n in cands if cached(a.suite, n)}
        sample_names = [n for n in cands if n in debs and is_early(deb_units(debs[n]))][:a.count]
    profile_debs = fetch(a.suite, ["ifupdown"])
    base = installed(tree)
    has_profiles = "--profile" in run([a.bootrace, "lint", "--help"]).stdout
    rows, disagree = [], 0
    groups = [sample_names] if a.together else [[n] for n in sample_names]
    for group in groups:
        name = " ".join(group)
        deb = [x for n in group for x in fetch(a.suite, [n])]
        if len(deb) != len(group):
            continue
        deps = sorted({d for n in group for d in dep_names(index.get(n, {}).get("Depends", "")) +
                       dep_names(index.get(n, {}).get("Pre-Depends", "")) +
                       dep_names(index.get(n, {}).get("Recommends", ""))
                       if d in with_units and d not in group and d not in base})
        dep_debs = fetch(a.suite, deps) if deps else []
        # a bootrace without profiles gets the profile's packages as packages to lint
        extra = [] if has_profiles else profile_debs
        r = run([a.bootrace, "lint", "-q", f"--target={target}", "--format=json"] + deb + dep_debs + extra)
        try:
            js = json.loads(r.stdout)
            ours, flagged = cycles_of_lint(js), finding_units(js)
        except ValueError:
            print(f"census: {name}: lint exit {r.returncode}: {r.stderr.strip()[:200]}", file=sys.stderr)
            ours, flagged = None, set()
        rc, log = verify_root(tree, deb + dep_debs + profile_debs)
        theirs = cycles_of_verify(log)
        # verify reports the cycles it meets until deleting a job breaks the rest: each of its cycles must be
        # one of bootrace's, and the linted units bootrace flags must be the ones in verify's cycles
        linted = {u for x in deb + dep_debs for u in deb_units(x)}
        in_theirs = set().union(*theirs) & linted if theirs else set()
        ok = ours is not None and theirs <= ours and flagged == in_theirs and bool(ours) == bool(theirs)
        disagree += not ok
        fmt = lambda cs: ";".join(sorted(",".join(sorted(c)) for c in cs)) if cs is not None else "ERROR"
        rows.append((name, ",".join(deps) or "-", fmt(ours), fmt(theirs), "agree" if ok else "DISAGREE"))
        print("\t".join(rows[-1]), flush=True)
    with_cycles = sum(1 for r in rows if r[3])
    summary = (f"{len(rows)} packages, {with_cycles} with ordering cycles under systemd-analyze verify, "
               f"{sum(1 for r in rows if r[2] and r[2] != 'ERROR')} under bootrace lint; {disagree} disagree")
    print(summary)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# package\tdependencies with units\tbootrace cycles\tverify cycles\tverdict\n")
            for r in rows:
                f.write("\t".join(r) + "\n")
            f.write(f"# {summary}\n")
    sys.exit(1 if disagree else 0)


if __name__ == "__main__":
    main()
