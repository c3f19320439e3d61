#!/usr/bin/env python3
"""Runs wlcs against fairway-wlcs.so and holds its result to a list.

Usage: run-wlcs.py RUNNER MODULE EXPECTED [--half N/2] [--filter PATTERN]
                   [--report FILE] [-- FAIRWAY-OPTIONS...]

EXPECTED lists the tests known to fail, one a line: the test's full name,
then its reason. The run fails on a crash, on a failing test that is not
listed, and on a listed test that passed or was skipped: the list must stay
true. Prints the tally by suite (passed, failed, expected, skipped).
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile


def read_expected(path):
    expected = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            name, _, reason = line.partition(' ')
            if not reason.strip():
                sys.exit(f'{path}:{number}: {name} has no reason')
            if name in expected:
                sys.exit(f'{path}:{number}: {name} is listed twice')
            expected[name] = reason.strip()
    return expected


def list_tests(runner, module):
    out = subprocess.run([runner, module, '--gtest_list_tests'],
                         capture_output=True, text=True, check=True).stdout
    tests, suite = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(' '):
            suite = line.split('#')[0].strip()
        else:
            tests.append(suite + line.split('#')[0].strip())
    return [t for t in tests if '.DISABLED_' not in t]


def half_filter(tests, which):
    """Every other suite: a fixed half that still covers each area."""
    suites = sorted({t.rsplit('.', 1)[0] for t in tests})
    chosen = set(suites[which::2])
    return ':'.join(s + '.*' for s in sorted(chosen))


def outcome(test):
    if test.get('status') != 'RUN':
        return None
    if 'wlcs-skip-test' in test or test.get('result') == 'SKIPPED':
        return 'skipped'
    return 'failed' if test.get('failures') else 'passed'


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('runner')
    parser.add_argument('module')
    parser.add_argument('expected')
    parser.add_argument('--half', choices=['1/2', '2/2'])
    parser.add_argument('--filter')
    parser.add_argument('--report')
    parser.add_argument('fairway_args', nargs='*')
    args = parser.parse_args()

    expected = read_expected(args.expected)
    command = [args.runner, args.module]
    if args.half:
        which = 0 if args.half == '1/2' else 1
        command.append('--gtest_filter=' + half_filter(
            list_tests(args.runner, args.module), which))
    elif args.filter:
        command.append('--gtest_filter=' + args.filter)

    with tempfile.TemporaryDirectory() as tmp:
        result_path = os.path.join(tmp, 'result.json')
        command.append('--gtest_output=json:' + result_path)
        command += args.fairway_args
        log_path = os.path.join(tmp, 'wlcs.log')
        env = dict(os.environ)
        # Each run's own, for the socket fairway listens on as always.
        runtime = os.path.join(tmp, 'runtime')
        os.mkdir(runtime, 0o700)
        env['XDG_RUNTIME_DIR'] = runtime
        with open(log_path, 'w') as log:
            status = subprocess.run(command, stdout=log, env=env,
                                    stderr=subprocess.STDOUT).returncode
        with open(log_path) as log:
            log_text = log.read()
        if status < 0 or not os.path.exists(result_path):
            sys.stdout.write(log_text[-20000:])
            print(f'wlcs crashed (status {status}): a crash is never expected')
            return 1
        with open(result_path) as f:
            result = json.load(f)

    tally = collections.defaultdict(collections.Counter)
    unexpected_failures, unexpected_passes = [], []
    for suite in result['testsuites']:
        for test in suite['testsuite']:
            name = test['classname'] + '.' + test['name']
            state = outcome(test)
            if state is None:
                continue
            listed = name in expected
            if state == 'failed' and listed:
                state = 'expected'
            elif state == 'failed':
                message = test['failures'][0]['failure'].split('\n')
                unexpected_failures.append((name, ' '.join(message[1:3])))
            elif listed:
                unexpected_passes.append((name, state))
            tally[suite['name']][state] += 1

    states = ['passed', 'failed', 'expected', 'skipped']
    lines = [f'{"suite":56} ' + ' '.join(f'{s:>8}' for s in states)]
    total = collections.Counter()
    for name in sorted(tally):
        total.update(tally[name])
        lines.append(f'{name:56} ' +
                     ' '.join(f'{tally[name][s]:8}' for s in states))
    lines.append(f'{"total":56} ' + ' '.join(f'{total[s]:8}' for s in states))
    report = '\n'.join(lines) + '\n'
    sys.stdout.write(report)
    if args.report:
        with open(args.report, 'w') as f:
            f.write(report)

    for name, message in unexpected_failures:
        print(f'UNEXPECTED FAILURE {name}: {message[:300]}')
    for name, state in unexpected_passes:
        print(f'UNEXPECTED {state.upper()} {name}: listed in {args.expected} '
              f'as "{expected[name]}"; remove it from the list')
    if unexpected_failures or unexpected_passes:
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
