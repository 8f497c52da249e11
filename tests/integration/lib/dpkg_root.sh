# Sourced by the tests that drive real dpkg through `aptus internal-dpkg-test`
# or `aptus install` without a repository.
#   dpkg_root TMP   an empty dpkg database under TMP/root (no shell of its
#                   own: maintainer scripts run with the host's /bin/sh) and
#                   TMP/apt.conf driving real dpkg into it; sets $root, and
#                   $not_root when dpkg needs --force-not-root.
dpkg_root() {
    local tmp=$1
    not_root=
    root=$tmp/root
    mkdir -p "$root"/var/lib/dpkg/{info,updates,triggers} "$root"/var/log/apt \
             "$root"/etc/apt/{apt.conf.d,sources.list.d,preferences.d} "$root"/var/cache/apt/archives/partial
    : > "$root/var/lib/dpkg/status"
    : > "$root/var/lib/dpkg/available"
    [ "$(id -u)" = 0 ] || not_root='DPkg::Options:: "--force-not-root";'
    cat > "$tmp/apt.conf" <<CONF
Dir "$root/";
Dir::State::status "$root/var/lib/dpkg/status";
Dir::Cache "$tmp/cache/";
Dir::Bin::dpkg "/usr/bin/dpkg";
DPkg::Options:: "--root=$root";
DPkg::Options:: "--force-script-chrootless";
DPkg::Options:: "--log=$root/var/log/dpkg.log";
$not_root
CONF
}
