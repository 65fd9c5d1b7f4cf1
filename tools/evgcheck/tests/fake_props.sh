#!/bin/sh
# A stand-in for the property binary in the CLI tests: gtest's listing, rapidcheck's output, and a failing
# property when FAKE_PROPS_FAIL names it. It echoes RC_PARAMS and EVG_PROPS_JOBS so the test sees what evgcheck
# passed.
# OracleEquality stands for a property of props/runner.hpp: with EVG_PROPS_PROGRESS=1 it prints one
# "evg-progress:" line per passing case. FlagsBalance stands for a plain RC_GTEST_PROP ("OK, passed N tests"
# only). PlantedHazardIsFound stands for a planted-fault test, which `check` leaves out unless asked.
case "$1" in
--gtest_list_tests)  # the second argument is --gtest_filter=PATTERN (a shell glob is close enough here)
    pattern="${2#--gtest_filter=}"
    echo "Props."
    for t in OracleEquality FlagsBalance PlantedHazardIsFound; do
        # shellcheck disable=SC2254
        case "Props.$t" in $pattern) echo "  $t" ;; esac
    done
    exit 0 ;;
esac
filter="${1#--gtest_filter=}"
echo "[ RUN      ] $filter"
echo "RC_PARAMS=$RC_PARAMS"
echo "EVG_PROPS_JOBS=$EVG_PROPS_JOBS"
progress() {  # progress FROM TO: the runner's lines for cases FROM..TO
    [ "$EVG_PROPS_PROGRESS" = 1 ] || return 0
    i=$1
    while [ "$i" -le "$2" ]; do
        echo "evg-progress: Props/${filter#Props.} $i/$EVG_PROPS_CASE_COUNT" >&2
        i=$((i + 1))
    done
}
if [ "$filter" = "Props.$FAKE_PROPS_FAIL" ]; then
    progress 1 6
    echo "Falsifiable after 7 tests and 12 shrinks"
    echo "%0 = AccLoad float"
    echo "%1 = AuxStore float D (%0)"
    echo "[  FAILED  ] $filter (5 ms)"
    exit 1
fi
if [ "$filter" = "Props.FlagsBalance" ] && [ -n "$FAKE_PROPS_SLEEP" ]; then
    sleep "$FAKE_PROPS_SLEEP"
fi
echo "Using configuration: $RC_PARAMS"
if [ "$filter" = "Props.OracleEquality" ]; then
    progress 1 "$EVG_PROPS_CASE_COUNT"
    echo "OK, passed $EVG_PROPS_CASE_COUNT tests"
else
    echo "OK, passed 25 tests"
fi
echo "[       OK ] $filter (3 ms)"
exit 0
