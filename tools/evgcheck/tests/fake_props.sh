#!/bin/sh
# A stand-in for the property binary in the CLI tests: gtest's listing, rapidcheck's output, and a failing
# property when FAKE_PROPS_FAIL names it. It echoes RC_PARAMS so the test sees what evgcheck passed.
case "$1" in
--gtest_list_tests)
    echo "Props."
    echo "  OracleEquality"
    echo "  FlagsBalance"
    exit 0 ;;
esac
filter="${1#--gtest_filter=}"
echo "[ RUN      ] $filter"
echo "RC_PARAMS=$RC_PARAMS"
if [ "$filter" = "Props.$FAKE_PROPS_FAIL" ]; then
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
echo "OK, passed 25 tests"
echo "[       OK ] $filter (3 ms)"
exit 0
