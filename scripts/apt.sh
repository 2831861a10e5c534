# Sourced by .ci/run and scripts/e2e/setup.sh. `apt_install PKG…` installs Debian packages, and
# when another apt or dpkg holds the package lock (an unattended upgrade, a second terminal) it
# waits for it, up to APT_LOCK_WAIT_S seconds (default 300), saying so, instead of failing at once.
apt_get() {
  local deadline=$(( $(date +%s) + ${APT_LOCK_WAIT_S:-300} )) told=0 err
  while true; do
    if err=$(DEBIAN_FRONTEND=noninteractive apt-get -qq "$@" 2>&1 >/dev/null); then return 0; fi
    if grep -qiE "could not get lock|unable to (acquire|lock)|is another process using it" <<<"$err"; then
      if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "apt-get $1: another apt or dpkg still holds the package lock after ${APT_LOCK_WAIT_S:-300} s; let it finish (see: ps -ef | grep -E 'apt|dpkg') and run this again" >&2
        return 1
      fi
      [ "$told" = 1 ] || echo "apt-get $1: another apt or dpkg holds the package lock; waiting for it (up to ${APT_LOCK_WAIT_S:-300} s)" >&2
      told=1
      sleep 5
      continue
    fi
    echo "$err" >&2
    return 1
  done
}

apt_install() {
  apt_get update && apt_get install -y --no-install-recommends "$@"
}
