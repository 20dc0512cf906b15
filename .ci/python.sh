# Sourced by .ci/run and .ci/wheels.
# An interpreter of Python $1: pythonX.Y on the PATH, else pyenv's (its shims answer only for
# the selected version).
find_python() {
    if command -v "python$1" >/dev/null && "python$1" -c '' 2>/dev/null; then
        command -v "python$1"
    elif command -v pyenv >/dev/null && latest=$(pyenv latest "$1" 2>/dev/null) &&
        [ -x "$(pyenv root)/versions/$latest/bin/python$1" ]; then
        echo "$(pyenv root)/versions/$latest/bin/python$1"
    else
        echo "CI: no Python $1 on this machine" >&2
        return 1
    fi
}
