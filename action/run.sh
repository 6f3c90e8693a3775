#!/usr/bin/env bash
# The steps of the stpc GitHub Action (../action.yml), one per first
# argument, so that they run (and are tested, by .ci/run) outside GitHub:
#
#   key       print the cache key of the build: a hash of the action's
#             Cargo.lock and sources (actions/cache's hashFiles only sees
#             the workspace, not the action's own checkout)
#   install   build stpc from this checkout of the action (`cargo install
#             --locked --path cli`) into $STPC_ROOT and put it on the PATH
#   check     `stpc --format sarif check` into $STPC_SARIF; the status is
#             recorded in $GITHUB_OUTPUT (`check-status`) and the step
#             passes, so the SARIF upload still runs
#   fmt       `stpc --format github fmt --check` (annotations, exit 1 if any
#             file is not formatted)
#   test      `stpc --format github test` (annotations at failing tests)
#   verdict   exit with the status `check` recorded
#
# Inputs come from the environment: STPC_PATHS (space-separated files or
# directories), STPC_DENY_WARNINGS (`true` adds `--deny warnings`),
# STPC_CARGO_FLAGS (extra `cargo install` flags).
set -euo pipefail

action_path="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Paths may be one line or a YAML block (`paths: |`), split on any white
# space. Arrays are expanded as ${a[@]+"${a[@]}"} so that an empty one is
# fine under `set -u` in every bash (macOS still ships 3.2).
read -r -d '' -a paths <<<"${STPC_PATHS:-.}" || true
if [ "${#paths[@]}" -eq 0 ]; then
    paths=(.)
fi
deny=()
if [ "${STPC_DENY_WARNINGS:-false}" = true ]; then
    deny=(--deny warnings)
fi

case "${1:-}" in
    key)
        hash="$(cd "$action_path" && find Cargo.lock Cargo.toml cli compiler runtime tables eval stdlib-contracts grammar \
            -type f ! -path '*/target/*' -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)"
        echo "key=stpc-${RUNNER_OS:-local}-${RUNNER_ARCH:-local}-${hash%% *}" >>"${GITHUB_OUTPUT:-/dev/stdout}"
        ;;
    install)
        root="${STPC_ROOT:-${RUNNER_TOOL_CACHE:-$HOME/.cache}/stpc}"
        read -r -d '' -a flags <<<"${STPC_CARGO_FLAGS:-}" || true
        cargo install --locked --path "$action_path/cli" --root "$root" ${flags[@]+"${flags[@]}"}
        echo "$root/bin" >>"${GITHUB_PATH:-/dev/null}"
        "$root/bin/stpc" --version
        ;;
    check)
        status=0
        stpc --format sarif check ${deny[@]+"${deny[@]}"} "${paths[@]}" >"${STPC_SARIF:-stpc.sarif}" || status=$?
        echo "check-status=$status" >>"${GITHUB_OUTPUT:-/dev/null}"
        if [ "$status" -ne 0 ]; then
            echo "stpc check found problems (status $status); see the code-scanning results" >&2
        fi
        ;;
    fmt)
        stpc --format github fmt --check "${paths[@]}"
        ;;
    test)
        stpc --format github test "${paths[@]}"
        ;;
    verdict)
        exit "${STPC_CHECK_STATUS:-1}"
        ;;
    *)
        echo "usage: run.sh key|install|check|fmt|test|verdict" >&2
        exit 2
        ;;
esac
