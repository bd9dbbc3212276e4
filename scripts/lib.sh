# Helpers shared by the scripts in this folder. Sourced, never run.

# Prints the packages of one [section] of scripts/apt-packages.txt, one a line.
# Keeping the parser here means the install script and the consistency check can never read the
# list differently.
apt_section() {
  local section=$1 file=${2:-"$(dirname "${BASH_SOURCE[0]}")/apt-packages.txt"}
  awk -v want="[$section]" '
    { sub(/#.*/, ""); gsub(/[ \t\r]+/, "") }
    /^\[.*\]$/ { on = ($0 == want); next }
    on && NF { print }
  ' "$file"
}

# Prints python3's folder for console scripts (where pip puts `hadolint`), then the user-install
# one. pyenv's shims only learn about new scripts after `pyenv rehash`, so callers look here
# instead of trusting PATH.
python_script_dirs() {
  python3 - <<'PY'
import site, sysconfig
print(sysconfig.get_path("scripts"))
print(site.getuserbase() + "/bin")
PY
}

# Prints the path of tool $1: from PATH, else from python3's script folders. Fails if absent.
find_tool() {
  local name=$1 dir
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  while IFS= read -r dir; do
    if [ -x "$dir/$name" ]; then printf '%s\n' "$dir/$name"; return 0; fi
  done < <(python_script_dirs)
  return 1
}
