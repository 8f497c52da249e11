# Sourced by the install tests: update_repo.sh's signed loopback archive,
# plus a sandbox root that real dpkg installs into. dpkg gets --root (so its
# database is the sandbox's, the place Dir= gives aptus) and
# --force-script-chrootless (maintainer scripts run without chroot, with
# DPKG_ROOT set: the sandbox has no shell of its own). Nothing outside $T is
# touched.
#
#   install_setup            update_setup, then the dpkg database and the
#                            DPkg options in $SB/apt.conf
#   install_suite SUITE SPEC (re)builds SUITE from a JSON package list
#                            (make_repo.py --spec), points the sources at it and
#                            runs aptus update
#   aptus_run ARGS           aptus ARGS; sets OUT, ERR, RC
#   spec NAME|VERSION|Field=value|... ...
#                            a package list for install_suite on stdout (JSON);
#                            " ~ " in a value stands for " | " (the separator)
#   installed NAME           prints NAME's installed version ("" when not installed)
#   pkg_status NAME          prints NAME's dpkg status words
#   twin DIR                 a copy of the sandbox at DIR, configured for itself
#   root_system DIR          a second system under DIR for `aptus --root DIR`
#                            (run it with APT_CONFIG unset): its own apt.conf.d,
#                            the sandbox's sources, an empty dpkg database
#   mounting_setup WHY       root only (else SKIP: WHY): install_setup, ARCHIVES,
#                            and the mounts listed in MOUNTS undone on exit
source "$(dirname "${BASH_SOURCE[0]}")/update_repo.sh"

install_setup() {
    command -v dpkg >/dev/null || { echo "SKIP: dpkg not installed"; exit 0; }
    update_setup
    configure_dpkg_root "$SB"
}

# The dpkg database and DPkg options of a sandbox root (also a twin's).
configure_dpkg_root() {
    local root=$1
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers" \
        "$root/var/cache/apt/archives/partial" "$root/var/log/apt" "$root/tmp"
    touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
    cat >>"$root/apt.conf" <<CONF
Dir::Bin::dpkg "/usr/bin/dpkg";
DPkg::Options { "--root=$root"; "--force-script-chrootless"; "--log=$root/var/log/dpkg.log"; };
CONF
}

install_suite() {
    local suite=$1 spec=$2
    make_suite "$suite" --spec "$spec" >/dev/null || { echo "FAIL: make_repo.py"; exit 1; }
    set_sources "$suite"
    "$APTUS" update -q >"$T/update-out" 2>"$T/update-err" ||
        { echo "FAIL: aptus update"; cat "$T/update-out" "$T/update-err"; exit 1; }
}

spec() {
    python3 - "$@" <<'PY'
import json, sys
out = []
for item in sys.argv[1:]:
    name, version, *rest = item.split("|")
    out.append({"name": name, "version": version, "fields": {k: v.replace(" ~ ", " | ") for k, v in (f.split("=", 1) for f in rest)}})
json.dump(out, sys.stdout)
PY
}

aptus_run() {
    "$APTUS" "$@" >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    OUT=$(cat "$T/out")
    ERR=$(cat "$T/err")
}

installed() {
    dpkg-query --admindir="$SB/var/lib/dpkg" -W -f='${db:Status-Abbrev}${Version}\n' "$1" 2>/dev/null |
        sed -n 's/^ii *//p'
}

pkg_status() {
    dpkg-query --admindir="$SB/var/lib/dpkg" -W -f='${Status}\n' "$1" 2>/dev/null
}

# The installed packages of a root, "name version" per line, sorted.
installed_set() {
    dpkg-query --admindir="$1/var/lib/dpkg" -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' 2>/dev/null |
        awk '$1 == "ii" {print $2, $3}' | sort
}

# A copy of the sandbox at DIR whose apt.conf names DIR, for running real
# apt on the same state.
twin() {
    local dir=$1
    cp -a "$SB" "$dir"
    sed -i "s#$SB/#$dir/#g; s#$SB\"#$dir\"#g; s#$T/cache#$dir/cache#g" "$dir/apt.conf"
    mkdir -p "$dir/cache"
}

root_system() {
    local r=$1
    mkdir -p "$r/etc/apt/sources.list.d" "$r/etc/apt/apt.conf.d" "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates" \
        "$r/var/lib/apt/lists" "$r/var/cache/apt/archives/partial"
    : >"$r/var/lib/dpkg/status"
    cp "$SB/etc/apt/sources.list.d/test.sources" "$r/etc/apt/sources.list.d/"
    cat >"$r/etc/apt/apt.conf.d/50test" <<CONF
DPkg::Options:: "--force-script-chrootless";
APT::Architecture "amd64";
Acquire::Languages "none";
CONF
}

# The start of a test that mounts over the sandbox's dirs: SKIP (saying
# WHY) unless root, install_setup, ARCHIVES, and every mount listed in
# MOUNTS undone on exit, before the teardown.
mounting_setup() {
    if [ "$(id -u)" != 0 ]; then echo "SKIP: $1"; exit 0; fi
    install_setup
    ARCHIVES=$T/cache/archives
    MOUNTS=()
    trap 'unmount_all; update_teardown' EXIT
}
unmount_all() {
    local m
    for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
}
