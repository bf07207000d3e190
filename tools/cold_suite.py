#!/usr/bin/env python3
"""The cold test suite: runs `ctest -V -j JOBS` in BUILD with empty PoCL and lockstep
caches (a fresh temporary folder; nothing of yours is touched), then prints the wall time, the
distinct kernel programs the suite compiled (every (file, -D options) pair LOCKSTEP_SHOW_BUILDS
printed: each is a PoCL compile the first time) and, per test, its programs, those no other test
shares and its time, most programs first. A program no other test shares is what a test's
variant choice costs; one shared is compiled once for the suite.
Usage: tools/cold_suite.py [BUILD (default build)] [JOBS (default 2)] [--log FILE: parse a saved
`ctest -V` log instead of running]"""
import collections, os, re, subprocess, sys, tempfile, time

def parse(lines):
    names, secs, builds = {}, {}, collections.defaultdict(set)
    for line in lines:
        m = re.match(r'^\s*\d+/\d+ Test\s+#(\d+): (.*?) \.+\s*\**\w+\s+([\d.]+) sec', line)
        if m:
            names[int(m[1])], secs[int(m[1])] = m[2], float(m[3])
        m = re.match(r'^(\d+): lockstep: build (\S+) \[(.*?)\] on ', line)
        if m:
            builds[int(m[1])].add((m[2], m[3]))
    return names, secs, builds

def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    if '--log' in sys.argv:
        lines = open(sys.argv[sys.argv.index('--log') + 1]).read().splitlines()
        wall = None
    else:
        build, jobs = (args + ['build', '2'])[0], (args + ['build', '2'])[1]
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, POCL_CACHE_DIR=f'{tmp}/pocl', LOCKSTEP_CACHE_DIR=f'{tmp}/lockstep',
                       XDG_CACHE_HOME=f'{tmp}/xdg')
            t0 = time.time()
            out = subprocess.run(['ctest', '-V', '-j', jobs], cwd=build, env=env, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
            wall = time.time() - t0
        lines = out.splitlines()
    names, secs, builds = parse(lines)
    for line in lines:  # ctest's verdict and the tests that failed or were skipped
        if re.match(r'^\d+% tests passed', line) or re.match(r'^\s*\d+/\d+ Test .*\*\*\*', line):
            print(line.strip())
    uses = collections.Counter(b for s in builds.values() for b in s)
    if wall is not None:
        print(f'wall {wall:.0f} s; sum of test times {sum(secs.values()):.0f} s; load now {os.getloadavg()[0]:.1f}')
    print(f'{len(uses)} distinct programs over {len(names)} tests')
    print('programs  own  seconds  test')
    rows = sorted(((len(s), sum(uses[b] == 1 for b in s), secs.get(t, 0), names.get(t, '?'))
                   for t, s in builds.items()), reverse=True)
    for r in rows:
        print('%8d %4d %8.1f  %s' % r)
    per_file = collections.Counter(f for f, _ in uses)
    print('per kernel file:', ', '.join(f'{f} {n}' for f, n in per_file.most_common()))

main()
