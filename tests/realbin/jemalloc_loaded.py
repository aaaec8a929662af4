# Runs the python script named first on the command line, after checking
# that jemalloc is this process's malloc: ld.so only warns about a preload
# it cannot find, and the test would then run python without it.
import runpy
import sys

if "/libjemalloc.so" not in open("/proc/self/maps").read():
    sys.exit("libjemalloc.so.2 is not loaded (tests/setup installs libjemalloc2)")
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
